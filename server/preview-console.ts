/**
 * The preview process's console, as log lines: Next prints a render's error with
 * `console.error` (and its notices with `console.log`/`warn`), a library may print
 * anything, and none of it would be JSON or say which page it was about. Here each call
 * becomes one JSON line through the process's logger, naming the page being rendered
 * (`renderContext`) and, for an error, its message and stack, and for content the
 * document and field it names (`ContentError`). The publisher takes the lines into its
 * own log, through its secret scrubbing (server/preview-process.ts).
 */
import { format } from 'node:util'
import type { Logger } from 'pino'
import { renderContext } from './preview-renderer.ts'

/** An error's fields for a log line: its message, stack and, for content, the document and field. */
export function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: String(error) }
  const { documentId, field } = error as Error & { documentId?: string; field?: string }
  return { error: error.message, stack: error.stack, ...(documentId ? { documentId, field } : {}) }
}

/**
 * Replaces `console.log`, `info`, `warn` and `error` with calls to `log`: an error during a
 * render, or of an Error, as `preview.render-error` at error level; the rest (Node's own
 * warnings included) as `preview.output` at its level.
 * @returns a function that puts the console back (tests)
 */
export function consoleToLog(log: Logger): () => void {
  const saved = { log: console.log, info: console.info, warn: console.warn, error: console.error }
  for (const [method, level] of [
    ['log', 'info'],
    ['info', 'info'],
    ['warn', 'warn'],
    ['error', 'error'],
  ] as const) {
    console[method] = (...args: unknown[]) => {
      const path = renderContext.getStore()?.path
      const thrown = args.find((arg) => arg instanceof Error)
      log[level](
        {
          // An error of a render (a page being rendered, or an Error thrown); else output.
          event: level === 'error' && (path || thrown) ? 'preview.render-error' : 'preview.output',
          path,
          ...(thrown ? errorFields(thrown) : {}),
        },
        format(...args.filter((arg) => arg !== thrown)) || (thrown as Error | undefined)?.message || '',
      )
    }
  }
  return () => Object.assign(console, saved)
}
