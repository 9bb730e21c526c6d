/**
 * @jest-environment node
 *
 * The preview server's build (`npm run build:preview`, NEXT_TARGET=preview-server)
 * prerenders no page of content: that server renders only in Next's draft mode, which
 * never serves a prerendered page, so prerendering would be work (and content) thrown
 * away. Every page waits for a request while it is built (`connection()` in
 * lib/content/page-source.ts) and the dynamic routes list no page to prerender; the
 * export's build, which sets no NEXT_TARGET, is left exactly as it was.
 */
const mockConnection = jest.fn(async () => undefined)
jest.mock('next/server', () => ({ connection: () => mockConnection() }))
jest.mock('next/headers', () => ({
  draftMode: async () => ({ isEnabled: false }),
  cookies: async () => ({ get: () => undefined }),
}))
jest.mock('next/og', () => ({ ImageResponse: class {} }))

import { PHASE_PRODUCTION_BUILD, PHASE_PRODUCTION_SERVER } from 'next/constants.js'
import { generateStaticParams as caseStudyParams } from '@/app/(site)/case-studies/[slug]/page'
import { generateStaticParams as cardParams } from '@/app/og/[card]/route'
import { getCaseStudyPaths } from '@/lib/content'
import { pageSource } from '@/lib/content/page-source'
import { buildingPreviewServer, NEXT_TARGET_ENV, PREVIEW_SERVER_TARGET } from '@/lib/next-target'
import type { NextConfig } from 'next'

/** next.config.mjs, typed by its JSDoc (TypeScript does not read the .mjs itself here). */
type NextConfigModule = { default: (phase: string) => NextConfig; PREVIEW_SERVER_DIST_DIR: string }
const configFile: string = '../../../next.config.mjs'

const env = { ...process.env }
afterEach(() => {
  process.env = { ...env }
  mockConnection.mockClear()
})
const buildPreviewServer = () => {
  process.env[NEXT_TARGET_ENV] = PREVIEW_SERVER_TARGET
}

test('only NEXT_TARGET=preview-server is the preview server being built', () => {
  expect(buildingPreviewServer({})).toBe(false)
  expect(buildingPreviewServer({ NEXT_TARGET: 'export' })).toBe(false)
  expect(buildingPreviewServer({ NEXT_TARGET: 'preview-server' })).toBe(true)
})

test('next.config.mjs: the same variable chooses the preview server, the production-server phase runs it', async () => {
  const { default: nextConfig, PREVIEW_SERVER_DIST_DIR } = (await import(configFile)) as NextConfigModule
  expect(nextConfig(PHASE_PRODUCTION_BUILD)).toMatchObject({ output: 'export' })
  expect(nextConfig(PHASE_PRODUCTION_BUILD)).not.toHaveProperty('distDir')
  // Its process compresses its answers itself, brotli included (server/preview/preview-renderer.ts, `compressed`).
  expect(nextConfig(PHASE_PRODUCTION_SERVER)).toMatchObject({
    distDir: PREVIEW_SERVER_DIST_DIR,
    compress: false,
  })
  buildPreviewServer()
  const preview = nextConfig(PHASE_PRODUCTION_BUILD)
  expect(preview).toMatchObject({ distDir: PREVIEW_SERVER_DIST_DIR })
  expect(preview).not.toHaveProperty('output')
})

test('while the preview server is built, every page waits for a request before reading content', async () => {
  await pageSource('always')
  expect(mockConnection).not.toHaveBeenCalled()
  buildPreviewServer()
  expect(await pageSource('always')).toMatchObject({ perspective: 'published' })
  expect(mockConnection).toHaveBeenCalledTimes(1)
})

test('while the preview server is built, the dynamic routes list no page: draft mode renders each on request', async () => {
  const studies = await getCaseStudyPaths()
  expect(studies.length).toBeGreaterThan(0) // else this proves nothing
  expect(await caseStudyParams()).toHaveLength(studies.length)
  expect((await cardParams()).length).toBeGreaterThan(studies.length)
  buildPreviewServer()
  expect(await caseStudyParams()).toEqual([])
  expect(await cardParams()).toEqual([])
})
