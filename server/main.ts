/** `npm start`: serves the live build, publishes on Sanity's webhook, runs editors' preview (startup.ts). */
import closeWithGrace from 'close-with-grace'
import { createServer } from './app.ts'
import { BuildStore } from './publishing/build-store.ts'
import { configFromEnv } from './config.ts'
import { InboxFile } from './serving/inbox.ts'
import { publisherLog } from './log.ts'
import { presentationClient } from './preview/preview.ts'
import { PreviewProcess } from './preview/preview-process.ts'
import { Publisher } from './publishing/publisher.ts'
import { PublishJournal } from './publishing/publish-journal.ts'
import { prepareStart } from './startup.ts'
import { WarmHtmlChecks } from './publishing/gate.ts'
import { javaAvailable } from './publishing/nu-html-checker.ts'
import { parentDeathSignalAvailable } from './child-lifetime.ts'

const config = (() => {
  try {
    return configFromEnv()
  } catch (error) {
    // A setting that would start the publisher unsafe: a clear message, and exit 1.
    console.error(`The publisher did not start: ${(error as Error).message}`)
    return process.exit(1)
  }
})()
const { siteDir, exportDir, publishGate, studioOrigins, previewSecret, presentationProject } = config
const log = publisherLog({ level: config.logLevel, secrets: config.secrets })
const store = new BuildStore(siteDir)
// The Nu checker's Java starts with the first build past its content check, not here: starts stay fast.
const htmlChecks =
  publishGate && javaAvailable()
    ? new WarmHtmlChecks((startMs, pid) =>
        log.info(
          { event: 'gate.html-checker', startMs, pid },
          `HTML checker service started in ${startMs} ms`,
        ),
      )
    : null
if (htmlChecks && !parentDeathSignalAvailable())
  log.warn(
    { event: 'startup', setpriv: false },
    "setpriv (util-linux) not found: the HTML checker's JVM runs under a Node guard (about 65 MB more), so it still ends with the publisher",
  )
if (!publishGate)
  log.warn(
    { event: 'startup', gate: 'off' },
    'publish gate: off (PUBLISH_GATE=off): builds go live unchecked',
  )
else
  log.info(
    { event: 'startup', gate: { html: !!htmlChecks } },
    htmlChecks
      ? 'publish gate: internal links and the Nu HTML checker on the changed pages'
      : 'publish gate: internal links only on the changed pages (the Nu HTML checker needs Java 17, not found)',
  )
const publisher = new Publisher({
  gate: publishGate ? { html: !!htmlChecks, checkHtml: htmlChecks?.check, warmUp: htmlChecks?.warm } : 'off',
  store,
  exportDir,
  command: { argv: config.buildArgv, cwd: process.cwd(), env: { ...process.env, PUBLISH_BUILD: '1' } },
  log,
  journal: new PublishJournal(siteDir, {
    warn: (message, detail) => log.warn({ event: 'journal.warning', ...detail }, message),
  }),
})

const start = await prepareStart({ store, publisher, exportDir, log }).catch((error: Error) => {
  log.fatal({ event: 'startup', error: error.message }, 'the publisher did not start: nothing to serve')
  return process.exit(1)
})

const preview = previewSecret
  ? new PreviewProcess({ root: process.cwd(), log, studioOrigins, heapMb: config.previewHeapMb })
  : null
const app = await createServer({
  ...config,
  store,
  publisher,
  inbox: new InboxFile(config.inboxFile),
  log,
  preview: preview
    ? {
        secret: previewSecret!,
        previousSecret: config.previousPreviewSecret,
        server: () => preview.current(),
        upstream: { base: preview.upstream, answerTimeoutMs: preview.answerTimeoutMs },
      }
    : undefined,
  presentation: presentationProject && (await presentationClient(presentationProject)),
})
if (previewSecret && !presentationProject)
  log.info(
    { event: 'startup' },
    "draft preview: /preview/enable takes SANITY_PREVIEW_SECRET; the Studio's Presentation secrets need SANITY_PROJECT_ID and SANITY_READ_TOKEN",
  )
if (!config.webhookSecret)
  log.warn({ event: 'startup' }, 'SANITY_WEBHOOK_SECRET is not set: POST /webhooks/sanity is off (404)')

closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
  if (err) log.error({ err }, 'shutting down after an error')
  else log.info({ signal }, 'shutting down')
  publisher.stop()
  await htmlChecks?.stop()
  await Promise.all([app.close(), preview?.close()])
})

await app.listen({ port: config.port, host: config.host })
const live = await store.liveId()
log.info({ event: 'startup', live, inbox: config.inboxFile }, `serving at http://localhost:${config.port}`)
void start.afterListening()
preview
  ?.start()
  .then(({ buildMs, readyMs }) =>
    log.info({ event: 'preview.started', buildMs, readyMs }, `preview ready in ${readyMs} ms`),
  )
  .catch((error: Error) =>
    log.error({ event: 'preview.failed', error: error.message }, 'the preview could not start'),
  )
