/** The publisher's settings: one JSON schema of its environment variables (env-schema), read at start. */
import { isIP } from 'node:net'
import path from 'node:path'
import { envSchema } from 'env-schema'
import { sourceFromEnv } from '../lib/content/source.ts'
import { assertStrongSecret, MIN_SECRET_LENGTH } from './secrets.ts'

/** A secret: `writeOnly` marks a value no message may print. */
const secret = (description: string) =>
  ({ type: 'string', minLength: MIN_SECRET_LENGTH, writeOnly: true, description }) as const

/** Every setting of the publisher; `.env.example` documents each for operators (a unit test checks). */
export const SETTINGS = {
  PORT: { type: 'integer', minimum: 1, maximum: 65_535, default: 3000, description: 'Port to listen on.' },
  HOST: { type: 'string', default: '0.0.0.0', description: 'Address to listen on.' },
  SANITY_WEBHOOK_SECRET: secret("The Sanity webhook's secret; without it POST /webhooks/sanity is 404."),
  SANITY_WEBHOOK_SECRET_PREVIOUS: secret('The previous webhook secret, accepted while a rotation settles.'),
  SANITY_PREVIEW_SECRET: secret("The secret of /preview/enable; turns editors' draft preview on."),
  SANITY_PREVIEW_SECRET_PREVIOUS: secret('The previous preview secret: accepted, its sessions kept.'),
  STUDIO_ORIGINS: { type: 'string', description: 'Studios elsewhere that may read states, frame previews.' },
  PREVIEW_HEAP_MB: {
    type: 'integer',
    minimum: 128,
    maximum: 16_384,
    default: 512,
    description: "The preview process's heap limit in MB; past it, the process starts again.",
  },
  SITE_DIR: { type: 'string', default: '.site', description: 'The folder of kept builds and the live link.' },
  OUT_DIR: { type: 'string', default: 'out', description: 'Where the build writes its export.' },
  BUILD_COMMAND: { type: 'string', description: "The build (default: npm run build's script, this Node)." },
  PUBLISH_GATE: { type: 'string', enum: ['on', 'off'], default: 'on', description: 'Check builds first.' },
  INBOX_FILE: { type: 'string', default: 'data/contact-inbox.ndjson', description: 'Contact entries.' },
  INBOX_RATE_LIMIT: {
    type: 'string',
    pattern: '^\\d*[1-9]\\d*/\\d*[1-9]\\d*$',
    examples: ['10/600'],
    default: '10/600',
    description: 'Contact submissions per client address: count/seconds.',
  },
  TRUST_PROXY: {
    type: 'string',
    default: 'false',
    description: 'Proxies whose X-Forwarded-For is believed.',
  },
  LOG_LEVEL: {
    type: 'string',
    enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    default: 'info',
    description: "The log's level (pino's).",
  },
} as const
type Settings = typeof SETTINGS

/** The settings as read, from the schema: integers as numbers, undefined for one unset without a default. */
type Env = {
  [Name in keyof Settings]:
    | (Settings[Name] extends { type: 'integer' } ? number : string)
    | (Settings[Name] extends { default: unknown } ? never : undefined)
}

/** A comma-separated list's entries, trimmed, without empty ones. */
const list = (text = '') => text.split(',').flatMap((entry) => entry.trim() || [])

/** An IP address, a CIDR range (`10.0.0.0/8`, `2400:cb00::/32`) or a range proxy-addr names. */
function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/')
  const bits = { 4: 32, 6: 128 }[isIP(address)]
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true
  return !!bits && !rest.length && (prefix === undefined || (/^\d{1,3}$/.test(prefix) && +prefix <= bits))
}

/**
 * TRUST_PROXY as Fastify's `trustProxy`: `false` (or unset), or a comma-separated list of addresses and ranges.
 * @throws Error for `true` and a number of hops (both believe entries a client writes), saying what
 *   to set instead, and for an entry that is no address, naming it
 */
export function trustProxyFrom(text: string | undefined): false | string[] {
  if (text === undefined || text === 'false') return false
  const instead =
    'Set the addresses of the proxies in front of the publisher: TRUST_PROXY=127.0.0.1 for Caddy or nginx on this ' +
    "machine, and a CDN's published ranges after it as CIDRs (docs/publishing.md)."
  if (text === 'true')
    throw new Error(
      'TRUST_PROXY=true is refused: it believes every X-Forwarded-For entry, and a client writes the first ones ' +
        `itself, so anyone could lock an editor out or guess without limit. ${instead}`,
    )
  if (/^\d+$/.test(text))
    throw new Error(
      `TRUST_PROXY=${text} is refused: a number of proxies cannot tell a proxy from a client that connects ` +
        `directly with entries of its own (Fastify ignores it). ${instead}`,
    )
  const entry = list(text).find((entry) => !isAddressOrRange(entry))
  if (entry !== undefined)
    throw new Error(
      `TRUST_PROXY: "${entry}" is not an IP address or CIDR range (e.g. 127.0.0.1, 10.0.0.0/8, 2400:cb00::/32)`,
    )
  return list(text)
}

/**
 * An origin as browsers send it in `Origin`: scheme, host and port only; no wildcard, which no
 * Origin header would match.
 * @throws Error naming STUDIO_ORIGINS when the entry has a path, query, user or anything else
 */
function studioOrigin(entry: string): string {
  const trimmed = entry.replace(/\/+$/, '')
  const url = URL.parse(trimmed)
  const host = /^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/i
  if (!url || !/^https?:$/.test(url.protocol) || !host.test(url.hostname) || url.origin !== trimmed)
    throw new Error(
      `STUDIO_ORIGINS: "${entry}" is not an origin (scheme, host and port only, e.g. https://agency.sanity.studio)`,
    )
  return url.origin
}

/**
 * The error a setting its schema refuses stops the start with: the variable, its rule and its value.
 * @throws the secret's own message (its length, never its value) for a short secret
 */
function refusal(error: unknown, given: Record<string, string>): Error {
  const name = (error as { errors?: { instancePath: string }[] }).errors?.[0]?.instancePath.slice(1) ?? ''
  if (!(name in SETTINGS)) return error as Error
  const setting = SETTINGS[name as keyof Settings]
  const value = given[name] ?? ''
  if ('writeOnly' in setting) assertStrongSecret(name, value)
  const rule =
    'enum' in setting
      ? `be ${setting.enum.map((option) => `"${option}"`).join(' or ')}`
      : 'maximum' in setting
        ? `be a whole number from ${setting.minimum} to ${setting.maximum}`
        : 'examples' in setting
          ? `look like ${setting.examples.join(' or ')}`
          : 'be valid'
  return new Error(`${name} must ${rule}, not "${value}"`)
}

/**
 * The publisher's settings from `env` (an empty variable is unset; paths resolve against the current folder).
 * @throws Error naming the variable for a value the publisher must not start with
 */
export function configFromEnv(env: Record<string, string | undefined> = process.env) {
  const given = Object.fromEntries(
    Object.keys(SETTINGS).flatMap((name) => (env[name]?.trim() ? [[name, env[name].trim()]] : [])),
  )
  let settings: Env
  try {
    settings = envSchema<Env>({ schema: { type: 'object', properties: SETTINGS }, data: given, env: false })
  } catch (error) {
    throw refusal(error, given)
  }
  const [max = 0, seconds = 0] = settings.INBOX_RATE_LIMIT.split('/').map(Number)
  const presentationProject = presentationProjectFrom(env)
  const writeOnly = (Object.keys(SETTINGS) as (keyof Settings)[]).filter(
    (name) => 'writeOnly' in SETTINGS[name],
  )
  return {
    port: settings.PORT,
    host: settings.HOST,
    siteDir: path.resolve(settings.SITE_DIR),
    exportDir: path.resolve(settings.OUT_DIR),
    // By default the publisher's own Node runs the build script: npm would add 0.5 s to every publish.
    buildArgv: settings.BUILD_COMMAND?.split(/\s+/) ?? [process.execPath, path.resolve('scripts/build.ts')],
    inboxFile: path.resolve(settings.INBOX_FILE),
    inboxRateLimit: { max, timeWindow: seconds * 1000 },
    webhookSecret: settings.SANITY_WEBHOOK_SECRET,
    previousWebhookSecret: settings.SANITY_WEBHOOK_SECRET_PREVIOUS,
    previewSecret: settings.SANITY_PREVIEW_SECRET,
    previousPreviewSecret: settings.SANITY_PREVIEW_SECRET_PREVIOUS,
    presentationProject,
    /** Every value no log line may hold: the schema's `writeOnly` settings and the read token. */
    secrets: [...writeOnly.map((name) => settings[name] as string | undefined), presentationProject?.token],
    previewHeapMb: settings.PREVIEW_HEAP_MB,
    trustProxy: trustProxyFrom(settings.TRUST_PROXY),
    studioOrigins: list(settings.STUDIO_ORIGINS).map(studioOrigin),
    publishGate: settings.PUBLISH_GATE === 'on',
    logLevel: settings.LOG_LEVEL,
  }
}

export type ServerConfig = ReturnType<typeof configFromEnv>

/** The site's Content Lake project with a read token, whose Presentation secrets /preview/enable accepts. */
function presentationProjectFrom(env: Record<string, string | undefined>) {
  const source = sourceFromEnv(env)
  if (source.kind !== 'sanity' || !source.token) return undefined
  const { projectId, dataset, apiVersion, token, apiHost } = source
  return { projectId, dataset, apiVersion, token, apiHost }
}
