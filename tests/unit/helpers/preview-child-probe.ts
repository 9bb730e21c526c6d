/**
 * The real preview process (server/preview/preview-child.ts), watched from inside: when it ends,
 * it writes to PROBE_FILE what its own `process.env` holds then, read here and not
 * through the process's own checks: `secrets`, the names of the publisher's secrets that
 * hold a value; `readToken`, SANITY_READ_TOKEN's value.
 */
import { writeFileSync } from 'node:fs'
import path from 'node:path'

const SECRETS = [
  'SANITY_WEBHOOK_SECRET',
  'SANITY_WEBHOOK_SECRET_PREVIOUS',
  'SANITY_PREVIEW_SECRET',
  'SANITY_PREVIEW_SECRET_PREVIOUS',
  'SANITY_API_WRITE_TOKEN',
]

process.on('exit', () => {
  writeFileSync(
    process.env.PROBE_FILE!,
    JSON.stringify({
      secrets: SECRETS.filter((name) => process.env[name]),
      readToken: process.env.SANITY_READ_TOKEN ?? null,
    }),
  )
})
// After the handler: the process may end while it starts.
await import(path.resolve(import.meta.dirname, '../../../server/preview/preview-child.ts'))
