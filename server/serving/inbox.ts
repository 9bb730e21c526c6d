/** `POST /api/contact`, the embedded default's inbox: checked entries fsync'd as JSON lines before "OK". */
import { appendFile, mkdir } from 'node:fs/promises'
import path from 'node:path'
import formbody from '@fastify/formbody'
import type { FastifyInstance } from 'fastify'
import { CONTACT_FIELDS, honeypotFilled, type ContactPayload } from '../../lib/contact.ts'
import { CONTACT_INBOX_PATH } from '../../lib/publisher-routes.ts'

/** Each field's most characters. */
const FIELD_LIMITS = { firstName: 100, lastName: 100, email: 254, phone: 40, website: 500, automation: 5000 }
/** Fields a visitor must fill in (spec §5). */
const REQUIRED: readonly string[] = ['firstName', 'lastName', 'email', 'phone']
/** Bytes; a bigger body is refused before parsing (413). */
const BODY_LIMIT = 32 * 1024

/**
 * Checks parsed JSON or form fields against spec §3/§5.
 * @returns the payload (trimmed; optional fields '' when absent), or the list of problems
 */
export function parseContact(
  body: unknown,
): { ok: true; entry: ContactPayload } | { ok: false; problems: string[] } {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return { ok: false, problems: ['body must be an object'] }
  const problems: string[] = []
  const entry = {} as ContactPayload
  for (const field of CONTACT_FIELDS) {
    const raw = (body as Record<string, unknown>)[field] ?? ''
    if (typeof raw !== 'string') problems.push(`${field}: must be text`)
    else {
      entry[field] = raw.trim()
      if (REQUIRED.includes(field) && !entry[field]) problems.push(`${field}: required`)
      const most = FIELD_LIMITS[field]
      if (entry[field].length > most) problems.push(`${field}: at most ${most} characters`)
    }
  }
  if (entry.email && !/^[^\s@]+@[^\s@]+$/.test(entry.email)) problems.push('email: not an e-mail address')
  return problems.length ? { ok: false, problems } : { ok: true, entry }
}

/** Appends JSON lines to one file durably, one write at a time. */
export class InboxFile {
  readonly file: string
  #tail: Promise<unknown> = Promise.resolve()

  /** @param file absolute path of the NDJSON file (its folder is created on demand) */
  constructor(file: string) {
    this.file = file
  }

  /** Resolves once the entry is on disk (fsync); rejects with the file system's error. */
  append(entry: object): Promise<void> {
    const write = this.#tail.then(async () => {
      await mkdir(path.dirname(this.file), { recursive: true })
      await appendFile(this.file, JSON.stringify(entry) + '\n', { flush: true })
    })
    this.#tail = write.catch(() => undefined)
    return write
  }
}

/**
 * Needs @fastify/rate-limit registered; `rateLimit`: submissions per client address per window.
 * A filled honeypot is answered as stored, so a bot learns nothing.
 */
export async function inboxRoutes(
  app: FastifyInstance,
  options: { inbox: InboxFile; rateLimit?: { max: number; timeWindow: number } },
) {
  await app.register(formbody, { bodyLimit: BODY_LIMIT })
  app.post(
    CONTACT_INBOX_PATH,
    { bodyLimit: BODY_LIMIT, config: { rateLimit: options.rateLimit } },
    async (request, reply) => {
      const fromForm = request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')
      const answerOk = () =>
        fromForm ? reply.redirect('/#contact', 303) : reply.code(200).send({ status: 'received' })
      if (honeypotFilled(request.body)) {
        request.log.info({ event: 'contact.dropped', reason: 'honeypot' }, 'contact entry dropped')
        return answerOk()
      }
      const result = parseContact(request.body)
      if (!result.ok) {
        request.log.info({ event: 'contact.rejected', problems: result.problems }, 'contact entry refused')
        return reply.code(400).send({ error: 'invalid contact entry', problems: result.problems })
      }
      await options.inbox.append({ receivedAt: new Date().toISOString(), ...result.entry })
      request.log.info({ event: 'contact.stored' }, 'contact entry stored')
      return answerOk()
    },
  )
}
