/** A failed preview render answers a notice naming the drafts it read, not Next's bare error page. */
import type { ServerResponse } from 'node:http'
import type { DraftRead } from '../../lib/content/drafts-read.ts'

/** A page reads a few; a list of hundreds helps no one. */
const LISTED = 10

/** The notice's heading and text, from the drafts the render read, in order. */
export function failedRenderNotice(path: string, drafts: readonly DraftRead[]): [string, string] {
  const title = 'The preview could not render this page'
  if (drafts.length === 0)
    return [
      title,
      `Rendering ${path}, it read no draft: the page fails on published content, or in the preview itself. The error is in the publisher log.`,
    ]
  const named = drafts.slice(0, LISTED).map((draft) => `“${draft.title}” (${draft.storedId})`)
  const more = drafts.length > LISTED ? `, and ${drafts.length - LISTED} more` : ''
  return [
    title,
    `Rendering ${path}, it read ${drafts.length === 1 ? 'this draft' : 'these drafts'}: ${named.join(', ')}${more}. ` +
      'One of them is the likely cause: open it in the Studio and fix it, or discard it. The error is in the publisher log.',
  ]
}

const BODY_HEADERS = ['content-encoding', 'content-length', 'content-type', 'etag', 'transfer-encoding']

/**
 * Turns any 500 on `res` whose head is not yet sent into `notice()`'s HTML, dropping every later byte
 * (compressed or not); any other answer passes untouched. Call before the render starts.
 */
export function answerFailureWith(res: ServerResponse, notice: () => string): void {
  const { writeHead, write, end } = res
  let body: string | undefined
  let ended = false
  const failing = (status: number | undefined) => body === undefined && !res.headersSent && status === 500
  const prepare = () => {
    if (res.headersSent) return
    for (const name of BODY_HEADERS) res.removeHeader(name)
    res.setHeader('Content-Type', 'text/html; charset=utf-8')
    res.setHeader('Content-Length', Buffer.byteLength(body!))
  }
  res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    if (failing(status)) body = notice()
    if (body === undefined)
      return (writeHead as (...args: unknown[]) => ServerResponse).call(this, status, ...rest)
    // Set again here: a compressing writer sets its own just before the head goes out.
    prepare()
    return res.headersSent ? res : writeHead.call(this, 500)
  } as ServerResponse['writeHead']
  res.write = function (this: ServerResponse, ...args: unknown[]) {
    if (failing(res.statusCode)) body = notice()
    if (body === undefined) return (write as (...args: unknown[]) => boolean).apply(this, args)
    const callback = args.find((arg) => typeof arg === 'function') as (() => void) | undefined
    callback?.()
    return true
  } as ServerResponse['write']
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    if (failing(res.statusCode)) body = notice()
    if (body === undefined) return (end as (...args: unknown[]) => ServerResponse).apply(this, args)
    const callback = args.find((arg) => typeof arg === 'function') as (() => void) | undefined
    if (ended) callback?.()
    else {
      ended = true
      prepare()
      end.call(this, body, 'utf8', callback)
    }
    return res
  } as ServerResponse['end']
}
