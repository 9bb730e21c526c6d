/**
 * The publisher's log (pino): one JSON line an event, pretty-printed on a terminal, and no
 * secret in it: requests without their query string (where preview secrets travel), proof
 * headers redacted, and any configured secret's value replaced by `[secret]` wherever it turns up.
 */
import { SIGNATURE_HEADER_NAME } from '@sanity/webhook'
import { pino, type DestinationStream, type Logger } from 'pino'
import { prettyFactory } from 'pino-pretty'

/** Paths pino's `redact` censors: request and reply headers that carry a proof. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  `req.headers["${SIGNATURE_HEADER_NAME}"]`,
  'headers.authorization',
  'headers.cookie',
  `headers["${SIGNATURE_HEADER_NAME}"]`,
  'res.headers["set-cookie"]',
]

/** A request as logged: method and path, without the query string. */
export function requestForLog(request: { method?: string; url?: string; ip?: string }) {
  return { method: request.method, path: (request.url ?? '').replace(/[?#].*$/, ''), ip: request.ip }
}

/**
 * @param secrets the values never to log (empty ones are ignored)
 * @returns a function that replaces each of them in any string, deep in objects and arrays
 */
export function secretScrubber(secrets: readonly (string | undefined)[]) {
  const values = [...new Set(secrets.filter((value): value is string => Boolean(value)))]
  const scrubString = (text: string) =>
    values.reduce((result, secret) => result.split(secret).join('[secret]'), text)
  const scrub = (value: unknown, depth = 0): unknown => {
    if (typeof value === 'string') return scrubString(value)
    if (depth > 6 || value === null || typeof value !== 'object') return value
    if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1))
    if (value instanceof Error)
      return { type: value.name, message: scrubString(value.message), stack: scrubString(value.stack ?? '') }
    // A request or reply is left to its serializer, which runs after.
    const prototype = Object.getPrototypeOf(value)
    if (prototype !== Object.prototype && prototype !== null) return value
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrub(item, depth + 1)]))
  }
  return scrub
}

/**
 * The publisher's logger.
 * @param options level (pino's), the secrets never to log, a destination (default stdout), and
 *   `pretty`: readable lines instead of JSON (default: when logging to stdout, a terminal)
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
  const scrub = secretScrubber(secrets)
  const options = {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { req: requestForLog, err: (error: unknown) => scrub(error) },
    formatters: { log: (object: Record<string, unknown>) => scrub(object) as Record<string, unknown> },
    hooks: {
      logMethod(this: Logger, args: unknown[], method: (...args: unknown[]) => void) {
        method.apply(
          this,
          args.map((arg) => (typeof arg === 'string' ? scrub(arg) : arg)),
        )
      },
    },
  }
  const out = destination ?? pino.destination(1)
  if (!pretty) return pino(options, out)
  // Synchronous, as pino's own stdout is: a line logged just before an exit is not lost.
  const prettify = prettyFactory({
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: true,
  })
  return pino(options, { write: (line: string) => out.write(prettify(line)) })
}
