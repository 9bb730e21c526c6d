/** The preview process's console (Next's render errors, any output) as JSON log lines naming the page. */
import { format } from 'node:util'
import type { Logger } from 'pino'
import { renderContext } from './preview-renderer.ts'

/** Message, stack and, for a `ContentError`, its document and field. */
export function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: String(error) }
  const { documentId, field } = error as Error & { documentId?: string; field?: string }
  return { error: error.message, stack: error.stack, ...(documentId ? { documentId, field } : {}) }
}

/**
 * Replaces `console.log`, `info`, `warn` and `error` with `log`: `console.error` during a render or
 * of an Error as `preview.render-error`, the rest as `preview.output`.
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
