/**
 * @jest-environment node
 *
 * The publisher's settings from the environment (server/config.ts).
 */
import path from 'node:path'
import { configFromEnv } from '@/server/config'

test('defaults: port 3000, .site/ and out/, no webhook, no preview, no Presentation project', () => {
  const config = configFromEnv({})
  expect(config).toMatchObject({
    port: 3000,
    siteDir: path.resolve('.site'),
    exportDir: path.resolve('out'),
    buildArgv: [process.execPath, path.resolve('scripts/build.ts')],
    studioOrigins: [],
  })
  expect([config.webhookSecret, config.previewSecret, config.presentationProject]).toEqual([
    undefined,
    undefined,
    undefined,
  ])
})

test("Presentation's secrets are checked against the site's own project, with its read token", () => {
  const env = { SANITY_PROJECT_ID: 'abc123xy', SANITY_DATASET: 'staging', SANITY_READ_TOKEN: ' sk-read ' }
  expect(configFromEnv(env).presentationProject).toEqual({
    projectId: 'abc123xy',
    dataset: 'staging',
    apiVersion: '2025-02-19',
    token: 'sk-read',
  })
  // Without a token (a public dataset) or a project (the local dataset) there is nothing to check with.
  expect(configFromEnv({ SANITY_PROJECT_ID: 'abc123xy' }).presentationProject).toBeUndefined()
  expect(configFromEnv({ SANITY_READ_TOKEN: 'sk-read' }).presentationProject).toBeUndefined()
})

test('STUDIO_ORIGINS: comma-separated, trimmed, without trailing slashes', () => {
  expect(
    configFromEnv({ STUDIO_ORIGINS: ' https://agency.sanity.studio/ ,http://localhost:3333,, ' })
      .studioOrigins,
  ).toEqual(['https://agency.sanity.studio', 'http://localhost:3333'])
})

test('PUBLISH_GATE: on unless set to off; anything else is an error naming it', () => {
  expect(configFromEnv({}).publishGate).toBe(true)
  expect(configFromEnv({ PUBLISH_GATE: 'off' }).publishGate).toBe(false)
  expect(() => configFromEnv({ PUBLISH_GATE: 'no' })).toThrow('PUBLISH_GATE must be "on" or "off", not "no"')
})

test('PREVIEW_HEAP_MB: 512 by default; a value that is not a whole number of MB in range stops the start', () => {
  expect(configFromEnv({}).previewHeapMb).toBe(512)
  expect(configFromEnv({ PREVIEW_HEAP_MB: '1024' }).previewHeapMb).toBe(1024)
  for (const value of ['64', '1e3', '512MB', '-1', '99999'])
    expect(() => configFromEnv({ PREVIEW_HEAP_MB: value })).toThrow(
      `PREVIEW_HEAP_MB must be a whole number from 128 to 16384, not "${value}"`,
    )
})

test('STUDIO_ORIGINS entries that are not origins stop the start, naming the entry', () => {
  for (const entry of [
    'agency.sanity.studio',
    'https://agency.sanity.studio/studio',
    'https://agency.sanity.studio?x=1',
    'https://user@agency.sanity.studio',
    'https://*.sanity.studio',
    'null',
  ])
    expect(() => configFromEnv({ STUDIO_ORIGINS: `http://localhost:3333,${entry}` })).toThrow(
      `STUDIO_ORIGINS: "${entry}" is not an origin`,
    )
})

test('secrets shorter than 32 characters stop the start, saying how to make one', () => {
  const strong = 'a'.repeat(32)
  for (const name of [
    'SANITY_WEBHOOK_SECRET',
    'SANITY_WEBHOOK_SECRET_PREVIOUS',
    'SANITY_PREVIEW_SECRET',
    'SANITY_PREVIEW_SECRET_PREVIOUS',
  ]) {
    expect(() => configFromEnv({ [name]: 'short-secret' })).toThrow(
      `${name} is 12 characters long; it needs at least 32. Make one with: openssl rand -hex 32`,
    )
    expect(() => configFromEnv({ [name]: strong })).not.toThrow()
  }
  expect(configFromEnv({ SANITY_PREVIEW_SECRET_PREVIOUS: strong }).previousPreviewSecret).toBe(strong)
})
