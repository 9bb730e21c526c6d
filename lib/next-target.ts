/**
 * Which of the app's two outputs a `next build` makes (docs/architecture.md, "Two outputs
 * of one app"): the static export for visitors, or, with NEXT_TARGET=preview-server
 * (`npm run build:preview` sets it), editors' preview server. next.config.mjs reads it to
 * configure the build; the renders read it so that the preview server's build
 * prerenders no page of content (lib/content/page-source.ts, the dynamic routes'
 * `generateStaticParams`): that server renders only in Next's draft mode (the publisher
 * turns it on for every request it hands over), which never serves a prerendered page.
 */

/** The environment variable naming the build's target. */
export const NEXT_TARGET_ENV = 'NEXT_TARGET'

/** Its value for the preview server's build. */
export const PREVIEW_SERVER_TARGET = 'preview-server'

/**
 * True while `next build` builds the preview server (NEXT_TARGET=preview-server).
 * False in the export's build, and in the running preview server too: the publisher
 * loads it by Next's production-server phase, not by this variable, and it renders
 * every page on request whatever this says.
 * @param env the environment (default: this process's)
 */
export function buildingPreviewServer(env: Record<string, string | undefined> = process.env): boolean {
  return env[NEXT_TARGET_ENV] === PREVIEW_SERVER_TARGET
}
