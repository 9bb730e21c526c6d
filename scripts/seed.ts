/** `npm run seed [-- --dry-run]`: writes the embedded content's missing or changed documents and images to a Sanity dataset. */
import path from 'node:path'
import { createSeedClient, loadSeed, seedConfigFromEnv, type SeedConfig } from './seed/load.ts'
import { applySeed, describePlan, isUpToDate, planSeed, summarizePlan, summarizeResult } from './seed/sync.ts'

const fail = (message: string): never => {
  console.error(`seed: ${message}`)
  process.exit(1)
}

const args = process.argv.slice(2)
const unknown = args.filter((arg) => arg !== '--dry-run')
if (unknown.length) fail(`unknown argument ${unknown.join(' ')} (usage: npm run seed [-- --dry-run])`)
const dryRun = args.includes('--dry-run')

let config: SeedConfig
try {
  config = seedConfigFromEnv(process.env)
} catch (error) {
  config = fail((error as Error).message)
}

try {
  const seed = await loadSeed(config.file)
  const client = createSeedClient(config)
  const target = `${config.projectId}/${config.dataset}`
  console.log(`seed: ${path.relative(process.cwd(), config.file)} -> ${target}${dryRun ? ' (dry run)' : ''}`)
  const plan = await planSeed(client, seed)
  for (const line of describePlan(plan)) console.log(line)
  console.log(`seed: ${summarizePlan(plan)}`)
  if (dryRun) {
    console.log('seed: dry run, nothing written')
  } else if (isUpToDate(plan)) {
    console.log(`seed: nothing to do, ${target} already matches the seed`)
  } else {
    console.log(`seed: done, ${summarizeResult(await applySeed(client, seed, plan))}`)
  }
} catch (error) {
  fail((error as Error).message)
}
