/**
 * Seeds a real Sanity dataset with the embedded content (documents and images).
 *   SANITY_PROJECT_ID=abc123 SANITY_DATASET=production npm run seed
 * Needs `sanity login` (or SANITY_AUTH_TOKEN with write access) and the network.
 * Replaces documents with the same _id; other documents are left alone.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { toImportDocuments } from '../lib/content/importable.ts'
import { DEFAULT_LOCAL_DATASET, parseNdjson } from '../lib/content/source.ts'

const projectId = process.env.SANITY_PROJECT_ID?.trim()
const dataset = process.env.SANITY_DATASET?.trim() || 'production'
if (!projectId) {
  console.error('seed: set SANITY_PROJECT_ID (and SANITY_DATASET) to the project to seed; see .env.example')
  process.exit(1)
}

const source = path.resolve(process.env.LOCAL_DATASET?.trim() || DEFAULT_LOCAL_DATASET)
const documents = toImportDocuments(
  parseNdjson(readFileSync(source, 'utf8'), source),
  path.join(path.dirname(source), 'images'),
)
const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'seed-')), 'import.ndjson')
writeFileSync(file, documents.map((doc) => JSON.stringify(doc)).join('\n') + '\n')
console.log(`seed: importing ${documents.length} documents into ${projectId}/${dataset}`)

const result = spawnSync('sanity', ['dataset', 'import', file, dataset, '--replace'], {
  cwd: 'studio',
  stdio: 'inherit',
  env: { ...process.env, SANITY_STUDIO_PROJECT_ID: projectId, SANITY_STUDIO_DATASET: dataset },
})
process.exit(result.status ?? 1)
