/** `npm run audit:size` (after a build; OUT_DIR for another export): each page's JavaScript, CSS and HTML, gzip KiB. */
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
