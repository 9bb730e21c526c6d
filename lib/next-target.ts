/** Which of the app's two outputs a `next build` makes (docs/architecture.md, "Two outputs of one app"). */

export const NEXT_TARGET_ENV = 'NEXT_TARGET'

export const PREVIEW_SERVER_TARGET = 'preview-server'

/**
 * True while `next build` builds the preview server (NEXT_TARGET=preview-server), never while it
 * runs: it then renders every page on request anyway.
 */
export function buildingPreviewServer(env: Record<string, string | undefined> = process.env): boolean {
  return env[NEXT_TARGET_ENV] === PREVIEW_SERVER_TARGET
}
