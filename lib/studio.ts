/**
 * Whether this build carries Sanity Studio at /studio, read from the environment
 * at build time (the Studio route is a static page; there is no server to ask later).
 */

/** Where the site serves its embedded Studio (app/(studio)/studio/[[...tool]]). */
export const STUDIO_BASE_PATH = '/studio'

/**
 * Where editors' Studio is: SANITY_STUDIO_URL (a Studio hosted elsewhere), else the
 * embedded one's path. The preview banner's links and stega's edit links point there.
 */
export function studioUrlFromEnv(env: Record<string, string | undefined> = process.env): string {
  return env.SANITY_STUDIO_URL?.trim() || STUDIO_BASE_PATH
}

/** The Sanity project and dataset the embedded Studio edits. */
export type StudioProject = { projectId: string; dataset: string }

// Sanity's own rules (this module's checks of the Studio's settings, and image URLs made
// from a project and dataset): project ids are lowercase letters, digits and dashes;
// dataset names lowercase letters, digits, underscores and dashes, up to 64 characters.
export const SANITY_PROJECT_ID = /^[a-z0-9][a-z0-9-]*$/
export const SANITY_DATASET = /^[a-z0-9][a-z0-9_-]{0,63}$/

/**
 * The project the embedded Studio should edit, or null to build the page that
 * explains how to set one up. SANITY_STUDIO_PROJECT_ID / SANITY_STUDIO_DATASET
 * (the names `sanity dev` and `sanity build` read) win over SANITY_PROJECT_ID /
 * SANITY_DATASET (the names the content layer reads, lib/content/source.ts);
 * the dataset defaults to 'production'.
 * @throws Error naming the variable when a value is not a valid Sanity project id or dataset name,
 *   so a typo fails the build instead of shipping a Studio that cannot connect
 */
export function studioProjectFromEnv(
  env: Record<string, string | undefined> = process.env,
): StudioProject | null {
  const pick = (...names: string[]) =>
    names.map((name) => ({ name, value: env[name]?.trim() })).find(({ value }) => value)
  const project = pick('SANITY_STUDIO_PROJECT_ID', 'SANITY_PROJECT_ID')
  if (!project?.value) return null
  if (!SANITY_PROJECT_ID.test(project.value)) {
    throw new Error(
      `${project.name}="${project.value}" is not a Sanity project id (lowercase letters, digits and dashes)`,
    )
  }
  const dataset = pick('SANITY_STUDIO_DATASET', 'SANITY_DATASET') ?? { name: 'default', value: 'production' }
  if (!SANITY_DATASET.test(dataset.value!)) {
    throw new Error(
      `${dataset.name}="${dataset.value}" is not a Sanity dataset name (lowercase letters, digits, _ and -)`,
    )
  }
  return { projectId: project.value, dataset: dataset.value! }
}

/**
 * The Studio's address for editing a document, at a field when `path` is given: Sanity's
 * edit intent, `<studioUrl>/intent/edit/id=<id>;type=<type>;path=<path>`, each value
 * percent-encoded as the Studio's router encodes intent parameters (the `path` in Sanity's
 * notation, e.g. `issue[_key=="a1"].children[0].text`, which the document pane focuses).
 * A release version opens in its release: the Studio's `perspective` parameter.
 * @param document `id` the published id, `type` its schema type, `release` a release id
 * @returns e.g. `/studio/intent/edit/id=review-a;type=review;path=stars?perspective=rSpring`
 */
export function studioEditHref(
  studioUrl: string,
  document: { id: string; type: string; path?: string; release?: string },
): string {
  const params = [
    ['id', document.id],
    ['type', document.type],
    ...(document.path ? [['path', document.path]] : []),
  ]
  const intent = params.map(([key, value]) => `${key}=${encodeURIComponent(value!)}`).join(';')
  const search = document.release ? `?perspective=${encodeURIComponent(document.release)}` : ''
  return `${studioUrl}/intent/edit/${intent}${search}`
}
