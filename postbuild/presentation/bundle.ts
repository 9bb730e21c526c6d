/**
 * Bundles the Presentation connection for a preview build's pages:
 * `node postbuild/presentation/bundle.ts <entry> <folder>` writes `connection-<hash>.js`
 * (the entry) and the chunks it loads into the folder. Run by
 * postbuild/presentation-connection.ts; exits 1 with rolldown's message on failure.
 */
import { readFile } from 'node:fs/promises'
import { build } from 'rolldown'

const [entry, dir] = process.argv.slice(2)
if (!entry || !dir) throw new Error('usage: node postbuild/presentation/bundle.ts <entry> <folder>')

await build({
  input: { connection: entry },
  platform: 'browser',
  transform: { define: { 'process.env.NODE_ENV': '"production"' } },
  // Sanity UI (visual editing's overlays) imports its stylesheet; the page gets it as a
  // <style> element when the overlays load (the preview pages' CSP allows inline styles).
  plugins: [
    {
      name: 'css-as-style-element',
      async load(id) {
        if (!id.endsWith('.css')) return null
        const css = JSON.stringify(await readFile(id, 'utf8'))
        return {
          code: `const style = document.createElement('style'); style.textContent = ${css}; document.head.append(style)`,
          moduleType: 'js',
        }
      },
    },
  ],
  // Sanity's packages mark modules "use client" for React Server Components; meaningless here.
  onLog: (level, log, report) => {
    if (log.code !== 'MODULE_LEVEL_DIRECTIVE') report(level, log)
  },
  output: {
    dir,
    format: 'esm',
    minify: true,
    entryFileNames: '[name]-[hash].js',
    chunkFileNames: '[name]-[hash].js',
  },
  write: true,
})
