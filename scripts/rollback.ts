/** `npm run rollback [-- BUILD_ID | --list]`: puts a kept build (default: the one before the live one) live at once. */
import { BuildStore } from '../server/publishing/build-store.ts'
import { configFromEnv } from '../server/config.ts'

const store = new BuildStore(configFromEnv().siteDir)
const builds = await store.list()
const arg = process.argv[2]

if (arg === '--list' || builds.length === 0) {
  if (builds.length === 0) console.error(`rollback: no kept builds in ${store.buildsDir}`)
  for (const build of builds) console.log(`${build.live ? '*' : ' '} ${build.id}  built ${build.builtAt}`)
  process.exit(builds.length === 0 ? 1 : 0)
}

const liveIndex = builds.findIndex((build) => build.live)
const target = arg ?? builds[liveIndex + 1]?.id
if (!target) {
  console.error('rollback: there is no build older than the live one; kept builds:')
  for (const build of builds) console.error(`${build.live ? '*' : ' '} ${build.id}`)
  process.exit(1)
}
if (!builds.some((build) => build.id === target)) {
  console.error(`rollback: no kept build "${target}"; kept: ${builds.map((build) => build.id).join(', ')}`)
  process.exit(1)
}
await store.setLive(target)
console.log(`rollback: ${target} is live (was ${builds[liveIndex]?.id ?? 'nothing'})`)
