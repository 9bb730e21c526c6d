/** The baseline of every speed figure: the empty Next.js page of tests/fixtures/empty-page, built and finalized like the site. */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { finalizeExport } from '../../postbuild/index.ts'
import { CONTACT_INBOX_PATH } from '../../lib/publisher-routes.ts'

export const EMPTY_PAGE_DIR = path.resolve('tests/fixtures/empty-page')
export const EMPTY_PAGE_OUT = path.join(EMPTY_PAGE_DIR, 'out')

/** Builds the empty page into EMPTY_PAGE_OUT; the export folder and the build's ms. */
export async function buildEmptyPage(): Promise<{ out: string; ms: number }> {
  const started = performance.now()
  const result = spawnSync('npx', ['next', 'build', EMPTY_PAGE_DIR], { encoding: 'utf8' })
  if (result.status !== 0)
    throw new Error(`the empty page did not build:\n${result.stdout}\n${result.stderr}`)
  await finalizeExport(EMPTY_PAGE_OUT, {
    bookingWidgetUrl: '/booking/',
    contactWebhookUrl: CONTACT_INBOX_PATH,
  })
  return { out: EMPTY_PAGE_OUT, ms: performance.now() - started }
}
