/** The seed script's settings from the environment (`.env.example`), and its Sanity client. */
import { createClient, type SanityClient } from '@sanity/client'
import path from 'node:path'
import { DEFAULT_API_VERSION, DEFAULT_LOCAL_DATASET } from '../../lib/content/source.ts'

export type SeedConfig = {
  projectId: string
  dataset: string
  apiVersion: string
  token: string
  /** Only for tests: a stand-in of Sanity's API, e.g. http://127.0.0.1:4010 */
  apiHost?: string
  file: string
}

const required = (env: Record<string, string | undefined>, name: string, what: string): string => {
  const value = env[name]?.trim()
  if (!value) throw new Error(`${name} is not set: ${what} (see .env.example)`)
  return value
}

/** The settings; throws naming the first of SANITY_PROJECT_ID and SANITY_API_WRITE_TOKEN that is missing. */
export function seedConfigFromEnv(env: Record<string, string | undefined> = process.env): SeedConfig {
  return {
    projectId: required(env, 'SANITY_PROJECT_ID', 'the id of the Sanity project to seed'),
    token: required(env, 'SANITY_API_WRITE_TOKEN', 'a Sanity API token with write access (Editor)'),
    dataset: env.SANITY_DATASET?.trim() || 'production',
    apiVersion: env.SANITY_API_VERSION?.trim() || DEFAULT_API_VERSION,
    apiHost: env.SANITY_API_HOST?.trim() || undefined,
    file: path.resolve(env.LOCAL_DATASET?.trim() || DEFAULT_LOCAL_DATASET),
  }
}

/** A client that reads documents exactly by `_id` (raw perspective, no CDN) and writes with the token. */
export function createSeedClient(config: SeedConfig): SanityClient {
  return createClient({
    projectId: config.projectId,
    dataset: config.dataset,
    apiVersion: config.apiVersion,
    token: config.token,
    apiHost: config.apiHost,
    // A stand-in host has no project subdomains.
    useProjectHostname: !config.apiHost,
    useCdn: false,
    perspective: 'raw',
  })
}
