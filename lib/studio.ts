/** Where editors' Sanity Studio is and which project the embedded one edits, read from the environment at build time. */

/** Where the site serves its embedded Studio. */
export const STUDIO_BASE_PATH = '/studio'

/** Where editors' Studio is: SANITY_STUDIO_URL (a Studio hosted elsewhere), else the embedded one's path. */
export function studioUrlFromEnv(env: Record<string, string | undefined> = process.env): string {
  return env.SANITY_STUDIO_URL?.trim() || STUDIO_BASE_PATH
}

export type StudioProject = { projectId: string; dataset: string }

// Sanity's rules: project ids lowercase letters, digits and dashes; dataset names also `_`, at most 64.
export const SANITY_PROJECT_ID = /^[a-z0-9][a-z0-9-]*$/
export const SANITY_DATASET = /^[a-z0-9][a-z0-9_-]{0,63}$/

/**
 * The project the embedded Studio edits (SANITY_STUDIO_* over SANITY_*, dataset 'production' by
 * default), or null. @throws Error naming the variable of an invalid project id or dataset name
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

/** The Studio's edit intent for a document, at a field (`path`) and in a release (`release`) when given. */
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
