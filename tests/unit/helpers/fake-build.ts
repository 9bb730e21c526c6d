/**
 * A stand-in for `npm run build` in publisher tests: writes a small export into
 * OUT_DIR in well under a second and finalizes it like the real postbuild step.
 * Env: FAKE_CONTENT_FILE (text shown in index.html's <h1>), FAKE_BUILD_MS (extra
 * time the build takes), FAKE_BUILD_LOG (a line is appended per build, to count
 * them), FAKE_BUILD_FAIL = 'content' (prints FAKE_BUILD_ERROR, else two content errors) |
 * 'throw' (dies of an uncaught error, FAKE_BUILD_ERROR its message: Node prints it with its
 * stack, as a crashed build does) | 'kill' | 'no-marker'. Past its content check it prints
 * the build's CONTENT_CHECKED_LINE (not with FAKE_BUILD_QUIET=1); with FAKE_BUILD_TREE_MS it
 * then starts a process of its own (as `next build` does) and waits that long for it.
 * Run: node tests/unit/helpers/fake-build.ts
 */
import { spawn } from 'node:child_process'
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { CONTENT_CHECKED_LINE } from '../../../lib/build-output.ts'
import { finalizeExport } from '../../../site-build/finalize.ts'
import { caseStudyRedirects } from '../../../site-build/redirects-file.ts'

const out = path.resolve(process.env.OUT_DIR ?? 'out')
const contentFile = process.env.FAKE_CONTENT_FILE
const content = contentFile ? readFileSync(contentFile, 'utf8').trim() : 'v1'
if (process.env.FAKE_BUILD_LOG) appendFileSync(process.env.FAKE_BUILD_LOG, `${content}\n`)
await new Promise((resolve) => setTimeout(resolve, Number(process.env.FAKE_BUILD_MS ?? 0)))

// Shaped like Next's export (site-build/next-export-shape.ts): async chunk scripts, and the
// RSC payload inline (one push per chunk) and in `<page>.txt` (`_not-found.txt` for 404.html).
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
  `<script src="/_next/static/chunks/app.js" async></script></head><body><main>${body}</main>` +
  `<script>(self.__next_f=self.__next_f||[]).push([0])</script>` +
  `<script>self.__next_f.push([1,${JSON.stringify(title)}])</script></body></html>\n`

const pages: Record<string, [title: string, body: string]> = {
  'index.html': ['Home', `<h1>${content}</h1>${'<p>Local businesses, running themselves.</p>'.repeat(60)}`],
  'sites.html': ['Sites', '<h1>Our Portfolio</h1>'],
  'case-studies/osteopath-lancing.html': ['Osteopath', '<h1>Osteopath</h1>'],
  'studio.html': ['Studio', '<h1>Studio</h1>'],
  '404.html': ['404', '<h1>404</h1><p>Oops! Page not found</p>'],
}
const files: Record<string, string> = {
  'booking/index.html': '<!doctype html><title>Booking</title><p>Booking stand-in</p>\n',
  '_next/static/chunks/app.js': `console.log(${JSON.stringify('x'.repeat(4000))})\n`,
  'media/abc-10x10.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>\n',
}
for (const [file, [title, body]] of Object.entries(pages)) {
  files[file] = page(title, body)
  files[file === '404.html' ? '_not-found.txt' : file.replace(/\.html$/, '.txt')] = title
}
for (const [file, text] of Object.entries(files)) {
  mkdirSync(path.dirname(path.join(out, file)), { recursive: true })
  writeFileSync(path.join(out, file), text)
}

const failure = process.env.FAKE_BUILD_FAIL
if (failure === 'content') {
  // As the build's content step prints several problems: one line each (FAKE_BUILD_ERROR
  // gives other lines).
  console.error(
    process.env.FAKE_BUILD_ERROR ??
      'build: Invalid content: document "review-osteopath", field "stars": Must be greater than or equal to 5\n' +
        'Invalid content: document "review-osteopath", field "text": Must be at least 20 characters long',
  )
  process.exit(1)
}
if (failure === 'throw') {
  // As the content source does with a corrupt dataset line, a few calls deep.
  const parseLine = () => {
    throw new Error(process.env.FAKE_BUILD_ERROR ?? 'studio/seed/dataset.ndjson:20: not valid JSON')
  }
  const readDataset = () => parseLine()
  readDataset()
}
if (process.env.FAKE_BUILD_QUIET !== '1') console.log(CONTENT_CHECKED_LINE)
const treeMs = Number(process.env.FAKE_BUILD_TREE_MS ?? 0)
if (treeMs) {
  const next = spawn(process.execPath, ['-e', `setTimeout(() => {}, ${treeMs})`], { stdio: 'ignore' })
  await new Promise((resolve) => next.once('exit', resolve))
}
if (failure === 'kill') process.kill(process.pid, 'SIGKILL')
// As the real build: one page per slug, the legacy id a redirect (site-build/redirects-file.ts).
const moved = caseStudyRedirects([
  { _id: 'caseStudy-osteopath-lancing', slug: 'osteopath-lancing', legacyId: 'Osteopath Lancing' },
])
if (failure !== 'no-marker')
  await finalizeExport(
    out,
    { bookingWidgetUrl: '/booking/', contactWebhookUrl: '/api/contact' },
    { redirects: { ...moved, siteUrl: 'https://www.example.co.uk' } },
  )
// As scripts/build.ts: its steps' times beside the marker; and, for the tests, the live
// build the publisher named as this build's history.
if (failure !== 'no-marker') {
  writeFileSync(path.join(out, '.build-phases.json'), JSON.stringify({ 'content check': 7, render: 11 }))
  writeFileSync(path.join(out, 'previous-build.txt'), process.env.PREVIOUS_BUILD_DIR ?? '(unset)')
}
