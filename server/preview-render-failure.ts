/**
 * A preview page that fails to render names the drafts it read. The drafts' vetting
 * (lib/content/draft-vetting.ts) keeps out every draft that breaks a rule, so a failure
 * is rare; when one happens anyway, Next answers with its own error page (status 500),
 * which tells an editor nothing. This answers instead, when nothing of Next's answer has
 * been sent yet, with a notice page naming the drafts the render read (recorded by
 * lib/content/drafts-read.ts): the likely causes, which the editor can open in the Studio
 * and fix or discard. The error itself goes to the publisher log as before.
 */
import type { ServerResponse } from 'node:http'
import type { DraftRead } from '../lib/content/drafts-read.ts'

/** The most drafts a notice lists by name (a page reads a few; a list of hundreds helps no one). */
const LISTED = 10

/**
 * The notice's heading and text for a failed render of `path`.
 * @param drafts the drafts the render read, in the order it read them
 */
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

/** Headers of Next's answer that would describe its body, not the notice. */
const BODY_HEADERS = ['content-encoding', 'content-length', 'content-type', 'etag', 'transfer-encoding']

/**
 * Makes a 500 answer, whoever starts it (Next's error page, or the renderer's own), the
 * notice page `notice()` gives, as long as nothing of it was sent: its headers are set
 * aside for the notice's, and every byte written after (compressed or not: Next's
 * compression writes through this) is dropped. Any other answer passes untouched.
 * @param res the response, before the render starts
 * @param notice the notice page's HTML, made when the failure is seen
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
