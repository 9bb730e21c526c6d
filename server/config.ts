/**
 * The server's settings, read from the environment (documented in `.env.example`).
 */
import path from 'node:path'
import { sourceFromEnv } from '../lib/content/source.ts'
import type { PresentationProject } from './preview.ts'

export type ServerConfig = {
  port: number
  host: string
  /** Folder of kept builds and the live link (SITE_DIR, default `.site/`). */
  siteDir: string
  /** Where `npm run build` writes its export (OUT_DIR, default `out/`). */
  exportDir: string
  /** The build command (BUILD_COMMAND, default `npm run build`), split on spaces. */
  buildArgv: string[]
  /** Where contact entries land (INBOX_FILE, default `data/contact-inbox.ndjson`). */
  inboxFile: string
  webhookSecret?: string
  /** Contact submissions per client (INBOX_RATE_LIMIT=`max/seconds`, default `10/600`). */
  inboxRateLimit: { max: number; timeWindow: number }
  trustProxy: boolean
  logLevel: string
  /** Origins of Studios hosted elsewhere that may read publish states (STUDIO_ORIGINS, comma-separated). */
  studioOrigins: string[]
  /**
   * PUBLISH_GATE: 'on' (default) checks each build's changed pages before it goes live;
   * 'off' skips the check (to measure what it costs; broken links can then go live).
   */
  publishGate: boolean
  /** SANITY_PREVIEW_SECRET: turns on editors' draft preview (preview builds, /preview/enable). */
  previewSecret?: string
  /**
   * The Content Lake project whose Presentation secrets /preview/enable accepts: the
   * site's own (SANITY_PROJECT_ID, SANITY_DATASET) with its SANITY_READ_TOKEN; absent
   * for the local dataset or without a token.
   */
  presentationProject?: PresentationProject
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

/** @throws Error naming the variable when the value is neither `on` nor `off` */
function onOff(name: string, text: string): boolean {
  if (text !== 'on' && text !== 'off') throw new Error(`${name} must be "on" or "off", not "${text}"`)
  return text === 'on'
}

/** @param env the environment (default `process.env`); paths resolve against the current folder */
export function configFromEnv(env: Record<string, string | undefined> = process.env): ServerConfig {
  const value = (name: string) => env[name]?.trim() || undefined
  return {
    port: Number(value('PORT') ?? 3000),
    host: value('HOST') ?? '0.0.0.0',
    siteDir: path.resolve(value('SITE_DIR') ?? '.site'),
    exportDir: path.resolve(value('OUT_DIR') ?? 'out'),
    buildArgv: (value('BUILD_COMMAND') ?? 'npm run build').split(/\s+/),
    inboxFile: path.resolve(value('INBOX_FILE') ?? 'data/contact-inbox.ndjson'),
    webhookSecret: value('SANITY_WEBHOOK_SECRET'),
    inboxRateLimit: rateLimit(value('INBOX_RATE_LIMIT') ?? '10/600'),
    trustProxy: value('TRUST_PROXY') === 'true',
    logLevel: value('LOG_LEVEL') ?? 'info',
    publishGate: onOff('PUBLISH_GATE', value('PUBLISH_GATE') ?? 'on'),
    previewSecret: value('SANITY_PREVIEW_SECRET'),
    presentationProject: presentationProjectFrom(env),
    studioOrigins: (value('STUDIO_ORIGINS') ?? '')
      .split(',')
      .map((origin) => origin.trim().replace(/\/+$/, ''))
      .filter(Boolean),
  }
}

/** The site's Content Lake project with a read token, or undefined (local dataset, no token). */
function presentationProjectFrom(env: Record<string, string | undefined>): PresentationProject | undefined {
  const source = sourceFromEnv(env)
  if (source.kind !== 'sanity' || !source.token) return undefined
  const { projectId, dataset, apiVersion, token, apiHost } = source
  return { projectId, dataset, apiVersion, token, ...(apiHost ? { apiHost } : {}) }
}
