/** The publisher's log (pino): JSON lines (pretty on a terminal), paths without query, no proof, no secret. */
import { SIGNATURE_HEADER_NAME } from '@sanity/webhook'
import { pino, type DestinationStream, type Logger } from 'pino'
import { prettyFactory } from 'pino-pretty'

/** Request and reply headers that carry a proof, for pino's `redact`. */
const PROOFS = ['.authorization', '.cookie', `["${SIGNATURE_HEADER_NAME}"]`]
const REDACTED = [
  ...PROOFS.flatMap((name) => [`req.headers${name}`, `headers${name}`]),
  'res.headers["set-cookie"]',
]

/**
 * The publisher's logger; each secret's value becomes `[secret]` wherever it turns up in a line.
 * @param options level (pino's), the secrets never to log (empty ones ignored), a destination
 *   (default stdout), and `pretty`: readable lines instead of JSON (default: stdout is a terminal)
 */
export function publisherLog({
  level,
  secrets,
  destination,
  pretty = !destination && Boolean(process.stdout.isTTY),
}: {
  level: string
  secrets: readonly (string | undefined)[]
  destination?: DestinationStream
  pretty?: boolean
}): Logger {
  // As each appears in a JSON line: itself, and escaped where JSON escapes it.
  const values = [
    ...new Set(secrets.flatMap((value) => (value ? [value, JSON.stringify(value).slice(1, -1)] : []))),
  ]
  const scrub = (line: string) => values.reduce((text, secret) => text.replaceAll(secret, '[secret]'), line)
  // Synchronous, as pino's own stdout is: a line logged just before an exit is not lost.
  const prettify = pretty
    ? prettyFactory({ translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true })
    : (line: string) => line
  const request = ({ method, url = '', ip }: { method?: string; url?: string; ip?: string }) => ({
    method,
    path: url.replace(/[?#].*$/, ''),
    ip,
  })
  const error = (error: unknown) =>
    error instanceof Error ? { type: error.name, message: error.message, stack: error.stack ?? '' } : error
  const out = destination ?? pino.destination(1)
  return pino(
    { level, redact: { paths: REDACTED, censor: '[redacted]' }, serializers: { req: request, err: error } },
    { write: (line: string) => out.write(prettify(scrub(line))) },
  )
}
