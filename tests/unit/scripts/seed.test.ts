/**
 * @jest-environment node
 */
/**
 * `npm run seed` end to end: spawns the real CLI (scripts/seed.ts on the project's
 * Node 24) against the local stand-in of Sanity's HTTP API, so it runs offline.
 */
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { StoredDocument } from '@/lib/content/source'
import { seedDocuments } from '../helpers/dataset'
import { startSanityStandIn, type StandIn, type StandInCall } from '../helpers/sanityStandIn'

jest.setTimeout(60_000)

const NODE = path.resolve('node_modules/.bin/node')
const CLI = path.resolve('scripts/seed.ts')
const IMAGES = path.resolve('studio/seed/images')
const TOKEN = 'test-write-token'

const seed = seedDocuments()
const assets = seed.filter((doc) => doc._type === 'sanity.imageAsset')
const content = seed.filter((doc) => doc._type !== 'sanity.imageAsset')
const sha1Of = (file: string) =>
  createHash('sha1')
    .update(readFileSync(path.join(IMAGES, file)))
    .digest('hex')

type Run = { code: number; stdout: string; stderr: string }

/** Runs the CLI with only the given Sanity variables (none inherited from the developer's shell). */
function runSeed(env: Record<string, string>, args: string[] = []): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env }
  for (const key of Object.keys(childEnv)) {
    if (key.startsWith('SANITY_') || key === 'LOCAL_DATASET') delete childEnv[key]
  }
  Object.assign(childEnv, env)
  return new Promise((resolve) => {
    execFile(NODE, [CLI, ...args], { env: childEnv }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0
      resolve({ code, stdout, stderr })
    })
  })
}

const envFor = (standIn: StandIn, extra: Record<string, string> = {}) => ({
  SANITY_PROJECT_ID: 'test0',
  SANITY_DATASET: 'production',
  SANITY_API_WRITE_TOKEN: TOKEN,
  SANITY_API_HOST: standIn.url,
  ...extra,
})

const isWrite = (call: StandInCall) =>
  call.method === 'POST' && /\/(data\/mutate|assets\/images)\//.test(call.path)
const mutationsIn = (calls: StandInCall[]) =>
  calls
    .filter((call) => call.path.endsWith('/data/mutate/production'))
    .flatMap((call) => (call.body as { mutations: Record<string, StoredDocument>[] }).mutations)

const withoutSystem = ({ _rev, _createdAt, _updatedAt, ...doc }: StoredDocument) => {
  void [_rev, _createdAt, _updatedAt]
  return doc
}
const storedById = (standIn: StandIn) => new Map(standIn.documents().map((doc) => [doc._id, doc]))

/** A copy of the seed with `edit` applied, in a temp folder whose images/ is the seed's. */
function editedSeed(edit: (doc: StoredDocument) => StoredDocument): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'seed-'))
  symlinkSync(IMAGES, path.join(dir, 'images'))
  const file = path.join(dir, 'dataset.ndjson')
  writeFileSync(file, seed.map((doc) => JSON.stringify(edit(structuredClone(doc)))).join('\n') + '\n')
  return file
}

const standIns: StandIn[] = []
async function standIn(...args: Parameters<typeof startSanityStandIn>) {
  const started = await startSanityStandIn(...args)
  standIns.push(started)
  return started
}
afterAll(() => Promise.all(standIns.map((started) => started.close())))

test('the CLI runs on Node 24 (the node devDependency)', async () => {
  const version = await new Promise<string>((resolve, reject) =>
    execFile(NODE, ['--version'], (error, stdout) => (error ? reject(error) : resolve(stdout.trim()))),
  )
  expect(Number(version.slice(1).split('.')[0])).toBeGreaterThanOrEqual(24)
})

describe('refuses clearly without its configuration', () => {
  test.each([
    ['SANITY_PROJECT_ID', { SANITY_PROJECT_ID: '' }],
    ['SANITY_API_WRITE_TOKEN', { SANITY_API_WRITE_TOKEN: '' }],
  ])('without %s: exit 1, one line naming it and .env.example, no request', async (name, blank) => {
    const api = await standIn([], { token: TOKEN })
    const { code, stdout, stderr } = await runSeed({ ...envFor(api), ...blank })
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(stderr).toContain(`${name} is not set`)
    expect(stderr).toContain('.env.example')
    expect(api.calls).toHaveLength(0)
  })

  test('a token the API refuses: exit 1 with the API error, nothing written', async () => {
    const api = await standIn([], { token: TOKEN })
    const { code, stderr } = await runSeed(envFor(api, { SANITY_API_WRITE_TOKEN: 'wrong' }))
    expect(code).toBe(1)
    expect(stderr).toMatch(/^seed: .*(401|Unauthorized|Session not found)/)
    expect(api.calls.some(isWrite)).toBe(false)
    expect(api.documents()).toEqual([])
  })
})

test('--dry-run on an empty dataset prints the whole plan and writes nothing', async () => {
  const api = await standIn([], { token: TOKEN })
  const { code, stdout, stderr } = await runSeed(envFor(api), ['--dry-run'])
  expect(stderr).toBe('')
  expect(code).toBe(0)
  for (const asset of assets) expect(stdout).toMatch(new RegExp(`upload +image ${asset.originalFilename}\\n`))
  for (const doc of content) expect(stdout).toMatch(new RegExp(`create +${doc._type} ${doc._id}\\n`))
  expect(stdout).toContain(`10 images to upload, 0 already there; ${content.length} documents to create`)
  expect(stdout).toContain('dry run, nothing written')
  expect(api.calls.length).toBeGreaterThan(0)
  expect(api.calls.some(isWrite)).toBe(false)
  expect(api.calls.every((call) => call.authorization === `Bearer ${TOKEN}`)).toBe(true)
  expect(api.documents()).toEqual([])
})

describe('first run, then a second run', () => {
  // This stand-in gives uploads ids unlike the seed's, so references must follow the API's answer.
  const remoteId = (sha1: string, extension: string) => `image-remote${sha1}-1200x800-${extension}`
  let api: StandIn
  let first: Run
  let afterFirst: number

  beforeAll(async () => {
    api = await standIn([], {
      token: TOKEN,
      assetId: ({ sha1, width, height, extension }) => `image-remote${sha1}-${width}x${height}-${extension}`,
    })
    first = await runSeed(envFor(api))
    afterFirst = api.calls.length
  })

  test('uploads the 10 images through the assets API with the token', () => {
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    const uploads = api.calls.filter((call) => call.path === '/v2025-02-19/assets/images/production')
    expect(uploads).toHaveLength(10)
    expect(uploads.every((call) => call.method === 'POST' && call.authorization === `Bearer ${TOKEN}`)).toBe(
      true,
    )
    expect(uploads.map((call) => call.search.filename).sort()).toEqual(
      assets.map((asset) => String(asset.originalFilename)).sort(),
    )
    expect(uploads.map((call) => (call.body as { sha1: string }).sha1).sort()).toEqual(
      assets.map((asset) => sha1Of(String(asset.originalFilename))).sort(),
    )
    expect(first.stdout).toContain('uploaded 10 images')
  })

  test('creates every content document once, createOrReplace in transactions of at most 50', () => {
    const mutateCalls = api.calls.filter((call) => call.path === '/v2025-02-19/data/mutate/production')
    expect(mutateCalls.length).toBeGreaterThan(0)
    for (const call of mutateCalls) {
      expect(call.authorization).toBe(`Bearer ${TOKEN}`)
      expect((call.body as { mutations: unknown[] }).mutations.length).toBeLessThanOrEqual(50)
    }
    const mutations = mutationsIn(api.calls)
    expect(mutations.every((mutation) => Object.keys(mutation).join() === 'createOrReplace')).toBe(true)
    expect(mutations.map((mutation) => mutation.createOrReplace!._id).sort()).toEqual(
      content.map((doc) => doc._id).sort(),
    )
  })

  test('stores the seed with every image reference rewritten to the uploaded asset', () => {
    const stored = storedById(api)
    const idMap = new Map(
      assets.map((asset) => [
        asset._id,
        remoteId(sha1Of(String(asset.originalFilename)), String(asset.extension)),
      ]),
    )
    let rewritten = 0
    for (const doc of content) {
      let expected = JSON.stringify(doc)
      for (const [local, remote] of idMap) {
        if (expected.includes(local)) rewritten += 1
        expected = expected.replaceAll(`"_ref":"${local}"`, `"_ref":"${remote}"`)
      }
      expect(withoutSystem(stored.get(doc._id)!)).toEqual(withoutSystem(JSON.parse(expected)))
    }
    expect(rewritten).toBe(10)
    for (const [, remote] of idMap) expect(stored.get(remote)?._type).toBe('sanity.imageAsset')
    for (const [local] of idMap) expect(JSON.stringify([...stored.values()])).not.toContain(local)
  })

  test('a second run writes nothing and says so', async () => {
    const revisions = api.documents().map((doc) => [doc._id, doc._rev])
    const second = await runSeed(envFor(api))
    expect(second.stderr).toBe('')
    expect(second.code).toBe(0)
    expect(second.stdout).toContain('nothing to do')
    expect(second.stdout.match(/ exists +image /g)).toHaveLength(10)
    expect(second.stdout.match(/ unchanged +/g)).toHaveLength(content.length)
    const secondCalls = api.calls.slice(afterFirst)
    expect(secondCalls.length).toBeGreaterThan(0)
    expect(secondCalls.filter(isWrite)).toEqual([])
    expect(api.documents().map((doc) => [doc._id, doc._rev])).toEqual(revisions)
  })
})

describe('touches only its own documents', () => {
  const foreign: StoredDocument[] = [
    { _id: 'post-not-ours', _type: 'post', title: 'Someone else', _rev: 'theirs1' },
    { _id: 'drafts.siteSettings', _type: 'siteSettings', brandName: 'A draft', _rev: 'theirs2' },
  ]
  let api: StandIn

  beforeAll(async () => {
    api = await standIn(foreign, { token: TOKEN })
    const run = await runSeed(envFor(api))
    expect(run.code).toBe(0)
  })

  test('a document that is not in the seed is left as it was', () => {
    const stored = storedById(api)
    for (const doc of foreign) expect(stored.get(doc._id)).toEqual(doc)
    const written = mutationsIn(api.calls).map((mutation) => Object.values(mutation)[0]!._id)
    expect(written.filter((id) => foreign.some((doc) => doc._id === id))).toEqual([])
  })

  test('with the same ids from the API, the stored documents are the seed itself', () => {
    const stored = storedById(api)
    for (const doc of content) expect(withoutSystem(stored.get(doc._id)!)).toEqual(withoutSystem(doc))
  })

  test('a changed seed document is updated, and only it', async () => {
    const changedId = 'service-ai-websites'
    const file = editedSeed((doc) =>
      doc._id === changedId ? { ...doc, title: 'AI Websites, rewritten' } : doc,
    )
    const revisions = new Map(api.documents().map((doc) => [doc._id, doc._rev]))

    const before = api.calls.length
    const dry = await runSeed(envFor(api, { LOCAL_DATASET: file }), ['--dry-run'])
    expect(dry.code).toBe(0)
    expect(dry.stdout).toMatch(new RegExp(`update +service ${changedId}\\n`))
    expect(dry.stdout).toContain(`0 documents to create, 1 to update, ${content.length - 1} unchanged`)
    expect(api.calls.slice(before).filter(isWrite)).toEqual([])

    const start = api.calls.length
    const run = await runSeed(envFor(api, { LOCAL_DATASET: file }))
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const calls = api.calls.slice(start)
    expect(calls.filter((call) => call.path.includes('/assets/'))).toEqual([])
    expect(mutationsIn(calls)).toEqual([
      { createOrReplace: expect.objectContaining({ _id: changedId, title: 'AI Websites, rewritten' }) },
    ])
    const stored = storedById(api)
    expect(stored.get(changedId)?.title).toBe('AI Websites, rewritten')
    for (const [id, rev] of revisions) if (id !== changedId) expect(stored.get(id)?._rev).toBe(rev)
    expect(stored.get(changedId)?._rev).not.toBe(revisions.get(changedId))
  })
})
