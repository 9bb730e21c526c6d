#!/usr/bin/env node
/**
 * `npm start`: serves the static export in out/ on http://localhost:3000
 * (PORT overrides), building it first if there is no build yet.
 * serve-handler (the routing core of Vercel's `serve`) behaves like a static
 * host: clean URLs (/sites -> sites.html), 404.html with status 404.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import handler from 'serve-handler'

const root = path.resolve(process.env.OUT_DIR ?? 'out')
const port = Number(process.env.PORT ?? 3000)
const host = process.env.HOST ?? '0.0.0.0'

if (!existsSync(path.join(root, 'index.html'))) {
  console.log('No build in out/ yet: running npm run build')
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

const server = http.createServer((request, response) =>
  handler(request, response, {
    public: root,
    cleanUrls: true,
    trailingSlash: false,
    directoryListing: false,
    etag: true,
  }),
)
server.listen(port, host, () => {
  console.log(`Serving ${path.relative(process.cwd(), root) || '.'} at http://localhost:${port}`)
})
