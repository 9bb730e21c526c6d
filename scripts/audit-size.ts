/**
 * `npm run audit:size`: what each exported page makes a browser download, JavaScript,
 * CSS and HTML, gzip, in KiB (thin CLI over scripts/bench/bytes.ts; `npm run bench`
 * prints the same beside the empty page, with brotli and raw sizes).
 * Usage: npm run build && npm run audit:size   (OUT_DIR overrides out/)
 */
import path from 'node:path'
import { routeBytes } from './bench/bytes.ts'

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)}`.padStart(7)
console.log(
  `${'page'.padEnd(44)} ${'JS gz'.padStart(7)} ${'CSS gz'.padStart(7)} ${'HTML gz'.padStart(7)}  (KiB)`,
)
for (const row of await routeBytes(path.resolve(process.env.OUT_DIR ?? 'out')))
  console.log(
    `${decodeURI(row.route).padEnd(44)} ${kib(row.js.gzip)} ${kib(row.css.gzip)} ${kib(row.html.gzip)}`,
  )
