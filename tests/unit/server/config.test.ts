/**
 * @jest-environment node
 *
 * The publisher's settings from the environment (server/config.ts).
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { configFromEnv, SETTINGS } from '@/server/config'

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
  for (const value of ['64', '512.5', '512MB', '-1', '99999'])
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

test('a value its schema refuses stops the start, naming the variable and what it takes', () => {
  expect(() => configFromEnv({ PORT: 'abc' })).toThrow(
    'PORT must be a whole number from 1 to 65535, not "abc"',
  )
  for (const value of ['ten', '0/600', '10/0', '10/600s'])
    expect(() => configFromEnv({ INBOX_RATE_LIMIT: value })).toThrow(
      `INBOX_RATE_LIMIT must look like 10/600, not "${value}"`,
    )
  expect(() => configFromEnv({ LOG_LEVEL: 'loud' })).toThrow('LOG_LEVEL must be "fatal" or "error"')
  expect(configFromEnv({ INBOX_RATE_LIMIT: '5/60' }).inboxRateLimit).toEqual({ max: 5, timeWindow: 60_000 })
})

test('an empty or blank variable counts as unset; values are trimmed', () => {
  const config = configFromEnv({ PORT: ' 3001 ', SANITY_WEBHOOK_SECRET: '', SANITY_PREVIEW_SECRET: '  ' })
  expect([config.port, config.webhookSecret, config.previewSecret]).toEqual([3001, undefined, undefined])
})

test(".env.example's publisher section documents every setting, with its default, and no other", () => {
  const sections = readFileSync('.env.example', 'utf8').split(/^# --- /m)
  const section = sections.find((part) => part.startsWith('The publisher (npm start)'))
  const documented = [...(section ?? '').matchAll(/^# ([A-Z][A-Z0-9_]*)=(.*)$/gm)]
  expect(documented.map(([, name]) => name).sort()).toEqual(Object.keys(SETTINGS).sort())
  const shown = Object.fromEntries(documented.map(([, name, value]) => [name, value]))
  for (const [name, setting] of Object.entries(SETTINGS))
    if ('default' in setting) expect([name, shown[name]]).toEqual([name, String(setting.default)])
})
