/**
 * The server's settings, read from the environment (documented in `.env.example`).
 */
import { isIP } from 'node:net'
import path from 'node:path'
import { sourceFromEnv } from '../lib/content/source.ts'
import type { PresentationProject } from './preview.ts'
import { assertStrongSecret } from './secrets.ts'

export type ServerConfig = {
  port: number
  host: string
  /** Folder of kept builds and the live link (SITE_DIR, default `.site/`). */
  siteDir: string
  /** Where `npm run build` writes its export (OUT_DIR, default `out/`). */
  exportDir: string
  /**
   * The build command (BUILD_COMMAND, split on spaces). Default: `npm run build`'s script
   * run by the publisher's own Node (Node 24, which `npm start` checked): npm and the
   * version check would add about 0.5 s to every publish.
   */
  buildArgv: string[]
  /** Where contact entries land (INBOX_FILE, default `data/contact-inbox.ndjson`). */
  inboxFile: string
  /** SANITY_WEBHOOK_SECRET: at least 32 characters. */
  webhookSecret?: string
  /**
   * SANITY_WEBHOOK_SECRET_PREVIOUS: still accepted while a rotation settles (deliveries
   * Sanity signed with the old secret, publish:local runs with an old .env.local).
   */
  previousWebhookSecret?: string
  /** Contact submissions per client (INBOX_RATE_LIMIT=`max/seconds`, default `10/600`). */
  inboxRateLimit: { max: number; timeWindow: number }
  /**
   * TRUST_PROXY: the addresses and CIDR ranges of the proxies in front, whose
   * X-Forwarded-For entries are believed (Fastify's `trustProxy`): the client is the
   * nearest entry that is not one of them. False by default: the socket's address is the
   * client. Never "any entry", nor a number of hops: the client writes the header's first
   * entries itself, and a hop count cannot tell the proxy from a client that connects
   * directly. Without it behind a proxy, every client shares the proxy's address, and one
   * client's wrong guesses or form posts count against all.
   */
  trustProxy: TrustProxy
  logLevel: string
  /** Origins of Studios hosted elsewhere that may read publish states (STUDIO_ORIGINS, comma-separated). */
  studioOrigins: string[]
  /**
   * PUBLISH_GATE: 'on' (default) checks each build's changed pages before it goes live;
   * 'off' skips the check (to measure what it costs; broken links can then go live).
   */
  publishGate: boolean
  /**
   * SANITY_PREVIEW_SECRET: turns on editors' draft preview (preview builds,
   * /preview/enable). At least 32 characters.
   */
  previewSecret?: string
  /**
   * SANITY_PREVIEW_SECRET_PREVIOUS: still accepted by /preview/enable, and its sessions
   * stay open until they expire, while editors move to the new secret.
   */
  previousPreviewSecret?: string
  /**
   * The Content Lake project whose Presentation secrets /preview/enable accepts: the
   * site's own (SANITY_PROJECT_ID, SANITY_DATASET) with its SANITY_READ_TOKEN; absent
   * for the local dataset or without a token.
   */
  presentationProject?: PresentationProject
  /**
   * The preview process's heap limit in MB (PREVIEW_HEAP_MB, default 512): past it the
   * process ends and starts again, and the publisher never grows with a draft.
   */
  previewHeapMb: number
}

/** Which proxies' X-Forwarded-For entries are believed (ServerConfig.trustProxy). */
export type TrustProxy = false | string[]

/** proxy-addr's names for address ranges, which Fastify's `trustProxy` accepts too. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal'])

/** Whether an entry is an IP address, a CIDR range (`10.0.0.0/8`, `2400:cb00::/32`) or a named range. */
function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true
  const [address = '', prefix, ...rest] = entry.split('/')
  const version = isIP(address)
  if (!version || rest.length) return false
  if (prefix === undefined) return true
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128)
}

/**
 * Parses TRUST_PROXY: `false` (or unset), or a comma-separated list of the proxies'
 * addresses and CIDR ranges (`127.0.0.1`, `10.0.0.0/8`, `2400:cb00::/32`, or proxy-addr's
 * `loopback`, `linklocal`, `uniquelocal`).
 * @throws Error for `true` and for a number of hops, saying what to set instead (both would
 *   believe entries a client writes itself), and for an entry that is no address, naming it
 */
export function trustProxyFrom(text: string | undefined): TrustProxy {
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
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  for (const entry of entries)
    if (!isAddressOrRange(entry))
      throw new Error(
        `TRUST_PROXY: "${entry}" is not an IP address or CIDR range (e.g. 127.0.0.1, 10.0.0.0/8, 2400:cb00::/32)`,
      )
  return entries
}

/**
 * Parses `max/seconds`, e.g. `10/600`.
 * @throws Error when the value is not two positive whole numbers
 */
function rateLimit(text: string): { max: number; timeWindow: number } {
  const match = /^(\d+)\/(\d+)$/.exec(text)
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1)
    throw new Error(`INBOX_RATE_LIMIT must look like 10/600 (submissions/seconds), not "${text}"`)
  return { max: Number(match[1]), timeWindow: Number(match[2]) * 1000 }
}

/** @throws Error naming the variable when the value is not a whole number from `min` to `max` */
function wholeNumber(name: string, text: string, min: number, max: number): number {
  const number = Number(text)
  if (!/^\d+$/.test(text) || number < min || number > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}, not "${text}"`)
  return number
}

/** @throws Error naming the variable when the value is neither `on` nor `off` */
function onOff(name: string, text: string): boolean {
  if (text !== 'on' && text !== 'off') throw new Error(`${name} must be "on" or "off", not "${text}"`)
  return text === 'on'
}

/**
 * An origin as browsers send it in `Origin`: scheme, host and port only.
 * @throws Error naming STUDIO_ORIGINS when the entry has a path, query, user or anything else
 */
function studioOrigin(entry: string): string {
  const trimmed = entry.replace(/\/+$/, '')
  let url: URL | undefined
  try {
    url = new URL(trimmed)
  } catch {
    url = undefined
  }
  // No wildcards: an Origin header names one host, and a pattern would never match it.
  const host = /^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/i
  const origin = url && /^https?:$/.test(url.protocol) && host.test(url.hostname) ? url.origin : undefined
  if (!origin || origin !== trimmed)
    throw new Error(
      `STUDIO_ORIGINS: "${entry}" is not an origin (scheme, host and port only, e.g. https://agency.sanity.studio)`,
    )
  return origin
}

/**
 * Reads a secret and checks its length.
 * @throws Error naming the variable when it is set but shorter than 32 characters
 */
function secretFrom(env: Record<string, string | undefined>, name: string): string | undefined {
  const value = env[name]?.trim() || undefined
  if (value !== undefined) assertStrongSecret(name, value)
  return value
}

/**
 * @param env the environment (default `process.env`); paths resolve against the current folder
 * @throws Error naming the variable for a value the publisher must not start with: a
 *   secret shorter than 32 characters, a STUDIO_ORIGINS entry that is not an origin, a
 *   malformed INBOX_RATE_LIMIT, PUBLISH_GATE or PREVIEW_HEAP_MB, a TRUST_PROXY that is not
 *   a list of addresses (`true` and hop counts included)
 */
export function configFromEnv(env: Record<string, string | undefined> = process.env): ServerConfig {
  const value = (name: string) => env[name]?.trim() || undefined
  return {
    port: Number(value('PORT') ?? 3000),
    host: value('HOST') ?? '0.0.0.0',
    siteDir: path.resolve(value('SITE_DIR') ?? '.site'),
    exportDir: path.resolve(value('OUT_DIR') ?? 'out'),
    buildArgv: value('BUILD_COMMAND')?.split(/\s+/) ?? [process.execPath, path.resolve('scripts/build.ts')],
    inboxFile: path.resolve(value('INBOX_FILE') ?? 'data/contact-inbox.ndjson'),
    webhookSecret: secretFrom(env, 'SANITY_WEBHOOK_SECRET'),
    previousWebhookSecret: secretFrom(env, 'SANITY_WEBHOOK_SECRET_PREVIOUS'),
    inboxRateLimit: rateLimit(value('INBOX_RATE_LIMIT') ?? '10/600'),
    trustProxy: trustProxyFrom(value('TRUST_PROXY')),
    logLevel: value('LOG_LEVEL') ?? 'info',
    publishGate: onOff('PUBLISH_GATE', value('PUBLISH_GATE') ?? 'on'),
    previewSecret: secretFrom(env, 'SANITY_PREVIEW_SECRET'),
    previousPreviewSecret: secretFrom(env, 'SANITY_PREVIEW_SECRET_PREVIOUS'),
    presentationProject: presentationProjectFrom(env),
    previewHeapMb: wholeNumber('PREVIEW_HEAP_MB', value('PREVIEW_HEAP_MB') ?? '512', 128, 16_384),
    studioOrigins: (value('STUDIO_ORIGINS') ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean)
      .map(studioOrigin),
  }
}

/** The site's Content Lake project with a read token, or undefined (local dataset, no token). */
function presentationProjectFrom(env: Record<string, string | undefined>): PresentationProject | undefined {
  const source = sourceFromEnv(env)
  if (source.kind !== 'sanity' || !source.token) return undefined
  const { projectId, dataset, apiVersion, token, apiHost } = source
  return { projectId, dataset, apiVersion, token, ...(apiHost ? { apiHost } : {}) }
}
