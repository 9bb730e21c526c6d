/**
 * A publisher and server in a temporary folder, building with the fake build
 * (helpers/fake-build.ts), for tests of serving, webhooks, builds and the inbox.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import type { SanityClient } from '@sanity/client'
import { createServer, type ServerOptions } from '@/server/app'
import { BuildStore } from '@/server/publishing/build-store'
import { InboxFile } from '@/server/serving/inbox'
import { publisherLog } from '@/server/log'
import { Publisher, type PublisherOptions } from '@/server/publishing/publisher'
import { PublishJournal, type writeAtomic } from '@/server/publishing/publish-journal'
import type { PreviewDown, PreviewHandler } from '@/server/preview/preview-process'
import { PREVIEW_HEADERS } from '@/server/preview/preview'
import { WEBHOOK_PATH } from '@/lib/publisher-routes'
import { webhookHeaders } from '@/scripts/publisher-client'

/** The project's Node 24 (the `node` devDependency), which runs .ts files. */
export const NODE = path.resolve('node_modules/.bin/node')
export const FAKE_BUILD = path.resolve('tests/unit/helpers/fake-build.ts')

export type Fixture = {
  dir: string
  store: BuildStore
  publisher: Publisher
  app: FastifyInstance
  /** The publisher's logger, writing to `logs`. */
  log: Logger
  /** JSON log lines written so far. */
  logs: Record<string, unknown>[]
  /** Sets what the next builds put in index.html's <h1>. */
  setContent: (text: string) => void
  /** Sets the drafts the preview renders on the next request. */
  setDraft: (text: string) => void
  /** Environment of the fake build (change between builds). */
  buildEnv: NodeJS.ProcessEnv
  inboxFile: string
  /**
   * A restart: a new publisher (its journal read again from the same site folder, written
   * with `journalWrite` when given) and a new app in place of `publisher` and `app`, which is closed.
   * The running build, if any, is left as it is: stop the old publisher first.
   */
  restart: (journalWrite?: typeof writeAtomic) => Promise<void>
  close: () => Promise<void>
}

/**
 * A stand-in of the preview server (server/preview/preview-process.ts): each request is rendered
 * on the spot as a page naming its method, path and the drafts file's content now, with
 * the preview server's headers. The real one is Next's, tried in the e2e tests.
 */
export function previewRenderer(draftFile: string): PreviewHandler {
  return {
    async handle(request, reply) {
      reply.hijack()
      const path = request.url.split('?')[0]
      reply.raw.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...PREVIEW_HEADERS })
      reply.raw.end(
        `<!doctype html><title>Preview</title><h1>Preview of ${request.method} ${path}: ${readFileSync(draftFile, 'utf8')}</h1>`,
      )
      return reply
    },
  }
}

/** What the app asks of its preview server now: ready, null while starting, or why it failed. */
export type PreviewServerState = PreviewHandler | PreviewDown | null

/**
 * @param options server options to override (e.g. webhookSecret, inboxRateLimit, now);
 *   previewSecret turns on the preview (a stand-in of the preview server that renders the
 *   drafts file on each request, `previewRenderer`), and
 *   previousPreviewSecret is the one being rotated out; previewServer replaces the app's
 *   getter of its preview server (given the stand-in), e.g. `() => null` for one that is
 *   still starting, or `() => new PreviewDown('crashed')` for one that is down;
 *   previewUpstream the socket a real preview process listens on (server/preview/preview-process.ts);
 *   journalWrite how the publish journal is written (tests inject faults);
 *   presentation is the client that checks the Presentation tool's secrets; gate the
 *   publisher's publish gate (default: links only); exportDir where the builds write their
 *   export (default `<dir>/out`)
 * @param firstBuild build once and put it live before returning (default true)
 */
export async function startFixture(
  {
    previewSecret,
    previousPreviewSecret,
    presentation,
    gate,
    previewServer = (renderer) => renderer,
    previewUpstream,
    exportDir: exportDirOption,
    journalWrite,
    ...options
  }: Partial<ServerOptions> & {
    journalWrite?: typeof writeAtomic
    previewSecret?: string
    previousPreviewSecret?: string
    presentation?: SanityClient
    gate?: PublisherOptions['gate']
    previewServer?: (renderer: PreviewHandler) => PreviewServerState
    previewUpstream?: NonNullable<ServerOptions['preview']>['upstream']
    exportDir?: string
  } = {},
  firstBuild = true,
): Promise<Fixture> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'publisher-'))
  const logs: Record<string, unknown>[] = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line))
      done()
    },
  })
  // The publisher's own logger, which keeps these secrets out of the log.
  const log = publisherLog({
    level: 'info',
    secrets: [options.webhookSecret, options.previousWebhookSecret, previewSecret, previousPreviewSecret],
    destination: sink,
  })
  const contentFile = path.join(dir, 'content.txt')
  writeFileSync(contentFile, 'v1')
  const draftFile = path.join(dir, 'draft.txt')
  writeFileSync(draftFile, 'v1')
  const exportDir = exportDirOption ?? path.join(dir, 'out')
  const buildEnv: NodeJS.ProcessEnv = {
    ...process.env,
    OUT_DIR: exportDir,
    FAKE_CONTENT_FILE: contentFile,
    FAKE_BUILD_LOG: path.join(dir, 'builds.log'),
  }
  const store = new BuildStore(path.join(dir, 'site'))
  // As main.ts: the journal in the site folder.
  const newPublisher = (write?: typeof writeAtomic) =>
    new Publisher({
      gate,
      store,
      exportDir,
      command: { argv: [NODE, FAKE_BUILD], cwd: process.cwd(), env: buildEnv },
      log,
      journal: new PublishJournal(store.root, {
        write,
        warn: (message, detail) => log.warn({ event: 'journal.warning', ...detail }, message),
      }),
    })
  const publisher = newPublisher(journalWrite)
  if (firstBuild) {
    publisher.request()
    await publisher.idle()
  }
  const inboxFile = path.join(dir, 'data', 'inbox.ndjson')
  const renderer = previewRenderer(draftFile)
  const newApp = (publisher: Publisher) =>
    createServer({
      store,
      publisher,
      inbox: new InboxFile(inboxFile),
      log,
      preview: previewSecret
        ? {
            secret: previewSecret,
            previousSecret: previousPreviewSecret,
            server: () => previewServer(renderer),
            upstream: previewUpstream,
          }
        : undefined,
      presentation,
      ...options,
    })
  const app = await newApp(publisher)
  await app.ready()
  const fixture: Fixture = {
    dir,
    store,
    publisher,
    app,
    log,
    logs,
    buildEnv,
    inboxFile,
    setContent: (text) => writeFileSync(contentFile, text),
    setDraft: (text) => writeFileSync(draftFile, text),
    restart: async (write) => {
      await fixture.app.close()
      fixture.publisher = newPublisher(write)
      fixture.app = await newApp(fixture.publisher)
      await fixture.app.ready()
    },
    close: async () => {
      await fixture.app.close()
      await fixture.publisher.idle()
      rmSync(dir, { recursive: true, force: true })
    },
  }
  return fixture
}

/** How many builds the fake build has run in this fixture. */
export function buildCount(fixture: Fixture): number {
  try {
    return readFileSync(path.join(fixture.dir, 'builds.log'), 'utf8').trim().split('\n').length
  } catch {
    return 0
  }
}

/**
 * A webhook delivery as Sanity signs it, for the document `id`, injected into the app.
 * @param key the delivery's idempotency key (default: the id)
 * @param type the document's `_type` (default `review`)
 * @returns the server's answer
 */
export async function deliverWebhook(
  fixture: Fixture,
  secret: string,
  id: string,
  key = id,
  type = 'review',
) {
  const body = JSON.stringify({ _id: id, _type: type })
  return fixture.app.inject({
    method: 'POST',
    url: WEBHOOK_PATH,
    headers: await webhookHeaders(body, secret, key),
    payload: body,
  })
}

/** The header the operator's scripts prove themselves with (server/secrets.ts). */
export { operatorHeaders } from '@/server/secrets'
