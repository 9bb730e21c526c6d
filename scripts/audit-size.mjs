#!/usr/bin/env node
/**
 * Prints what each exported page makes a browser download: JavaScript, CSS and
 * HTML, raw and gzip (level 9), from the files its HTML references in out/.
 * Next 16 no longer prints first-load sizes; this is the figure to watch.
 * Usage: npm run build && npm run audit:size
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

const out = path.resolve(process.env.OUT_DIR ?? 'out')
const pages = []
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) walk(file)
    else if (name.endsWith('.html') && !file.includes(`${path.sep}booking${path.sep}`)) pages.push(file)
  }
}
walk(out)

const kib = (bytes) => `${(bytes / 1024).toFixed(1)}`.padStart(7)
const sizeOf = (files) =>
  files.reduce(
    (sum, file) => {
      const bytes = readFileSync(path.join(out, file))
      return { raw: sum.raw + bytes.length, gzip: sum.gzip + gzipSync(bytes, { level: 9 }).length }
    },
    { raw: 0, gzip: 0 },
  )

console.log(
  `${'page'.padEnd(44)} ${'JS gz'.padStart(7)} ${'CSS gz'.padStart(7)} ${'HTML gz'.padStart(7)}  (KiB)`,
)
for (const page of pages.sort()) {
  const html = readFileSync(page, 'utf8')
  const refs = (pattern) => [...new Set([...html.matchAll(pattern)].map((match) => match[1]))]
  const js = sizeOf(refs(/<script[^>]+src="([^"]+)"/g))
  const css = sizeOf(refs(/<link[^>]+href="([^"]+\.css)"/g))
  const name = '/' + path.relative(out, page).replace(/(index)?\.html$/, '')
  console.log(
    `${name.padEnd(44)} ${kib(js.gzip)} ${kib(css.gzip)} ${kib(gzipSync(html, { level: 9 }).length)}`,
  )
}
