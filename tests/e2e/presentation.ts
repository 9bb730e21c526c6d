/**
 * A stand-in of the Studio's Presentation tool, for the browser tests:
 * the current page (of the site's own origin, as the embedded Studio is) frames a preview
 * page and speaks Sanity's comlink protocol to it as Presentation does, records every
 * message the frame posts, and tells Presentation's refreshes to it. Visitors' pages, and
 * pages outside a frame, carry no visual editing and never answer.
 */
import type { Frame, Page, Request } from '@playwright/test'

/** One message the framed page posted to Presentation. */
export type FrameMessage = {
  /** as the frame names it, e.g. `handshake/syn-ack`, `visual-editing/refreshed`, `overlay/focus` (the older dialect of `visual-editing/focus`) */
  type: string
  /** the sender's name, e.g. `overlays` */
  from: string
  /** the message's payload as posted (a focus's document id and path, a refresh's source) */
  data?: unknown
  /** when the stand-in got it, epoch ms by the browser's clock (sub-ms precision) */
  at: number
}

/** One page render the frame asked the server for. */
export type Render = { url: string; started: number; ended?: number }

/** A preview page framed by the stand-in, connected (the handshake answered). */
export type PresentationFrame = {
  /** the framed page, for Playwright's own calls (it stays the same document: no reload) */
  frame: Frame
  /** every message the frame posted so far, oldest first */
  messages: () => Promise<FrameMessage[]>
  /** how many times the frame loaded (1 while refreshes re-render in place) */
  loads: () => Promise<number>
  /** the frame's visible text now */
  text: () => Promise<string>
  /**
   * Posts `presentation/refresh` as Presentation does: `mutation` after an editor's change
   * was saved, `manual` for its refresh button.
   * @returns when it was posted, epoch ms by the browser's clock
   */
  refresh: (source?: 'mutation' | 'manual') => Promise<number>
  /**
   * Starts watching the frame's DOM for `text` in the elements matching `selector`;
   * call it before the change that should show it.
   * @returns a wait for the first moment the DOM showed it (epoch ms by the browser's
   *   clock), which throws after `timeoutMs` naming the text and selector
   */
  watchFor: (text: string, selector?: string, timeoutMs?: number) => Promise<() => Promise<number>>
  /**
   * the page renders the frame asked for so far (RSC requests, prefetches aside), oldest
   * first: when each started and ended (epoch ms by this process's clock, as Playwright
   * reports the events; `ended` is unset while it runs)
   */
  renders: () => Render[]
  /** Removes the frame and stops recording. */
  close: () => Promise<void>
}

/** The browser-side state of the stand-in, on the framing page's window. */
const STATE = '__presentationStandIn'

/** An RSC request of a page render (Next's `rsc` header), not a prefetch. */
const isRender = (request: Request) => {
  const headers = request.headers()
  return headers.rsc === '1' && !headers['next-router-prefetch']
}

/**
 * Frames `src` in the current page and connects to it as Presentation does: the
 * handshake (`syn` every 500 ms until `syn-ack`, then `ack`), in the protocol's newer
 * dialect (the frame answers in the older "channels" one, which Presentation reads too).
 * @param page a page of the site's own origin (a preview page: frame ancestors allow the site)
 * @param src the framed page's URL path, e.g. `/`
 * @throws Error when the frame did not answer within `handshakeMs`, naming what it posted
 */
export async function openPresentation(
  page: Page,
  src: string,
  { handshakeMs = 30_000 }: { handshakeMs?: number } = {},
): Promise<PresentationFrame> {
  const outcome = await page.evaluate(
    async ({ url, key, handshakeMs }) => {
      const store = window as unknown as Record<string, unknown>
      if (store[key]) throw new Error('a Presentation stand-in is open on this page already')
      const now = () => performance.timeOrigin + performance.now()
      const frame = document.createElement('iframe')
      frame.dataset.presentation = 'stand-in'
      frame.style.width = '1280px'
      frame.style.height = '800px'
      const state = {
        frame,
        channelId: `chn-stand-in-${Date.now()}`,
        seen: [] as { type: string; from: string; data?: unknown; at: number }[],
        loads: 0,
        sent: 0,
        listen: ({ data, source }: MessageEvent) => {
          if (source !== frame.contentWindow) return
          if (!['sanity/comlink', 'sanity/channels'].includes(data?.domain)) return
          state.seen.push({ type: data.type, from: data.from, data: data.data, at: now() })
        },
        post: (type: string, data?: unknown) => {
          state.sent += 1
          frame.contentWindow?.postMessage(
            {
              domain: 'sanity/comlink',
              type,
              from: 'presentation',
              to: 'visual-editing',
              channelId: state.channelId,
              id: `msg-${state.sent}`,
              ...(data === undefined ? {} : { data }),
            },
            location.origin,
          )
        },
      }
      store[key] = state
      frame.addEventListener('load', () => (state.loads += 1))
      window.addEventListener('message', state.listen)
      frame.src = url
      document.body.append(frame)
      const acked = () => state.seen.some((message) => message.type === 'handshake/syn-ack')
      const until = now() + handshakeMs
      while (!acked() && now() < until) {
        state.post('comlink/handshake/syn')
        await new Promise((resolve) => setTimeout(resolve, 500))
      }
      if (!acked()) return { acked: false, seen: state.seen.map((message) => message.type) }
      state.post('comlink/handshake/ack')
      return { acked: true, seen: [] }
    },
    { url: src, key: STATE, handshakeMs },
  )
  if (!outcome.acked)
    throw new Error(
      `Presentation stand-in: ${src} did not answer the handshake (syn-ack) within ${handshakeMs} ms; ` +
        `it posted: ${outcome.seen.join(', ') || 'nothing'}`,
    )
  const frame = await (await page.$('iframe[data-presentation="stand-in"]'))?.contentFrame()
  if (!frame) throw new Error(`Presentation stand-in: the frame of ${src} is gone`)
  const renders = new Map<Request, Render>()
  const now = () => performance.timeOrigin + performance.now()
  const onRequest = (request: Request) => {
    if (request.frame() === frame && isRender(request))
      renders.set(request, { url: request.url(), started: now() })
  }
  const onEnd = (request: Request) => {
    const render = renders.get(request)
    if (render) render.ended = now()
  }
  page.on('request', onRequest)
  page.on('requestfinished', onEnd)
  page.on('requestfailed', onEnd)

  type State = {
    frame: HTMLIFrameElement
    seen: FrameMessage[]
    loads: number
    listen: (event: MessageEvent) => void
    post: (type: string, data?: unknown) => void
  }
  const read = <Field extends 'seen' | 'loads'>(field: Field): Promise<State[Field]> =>
    page.evaluate(
      ({ key, field }) => {
        const state = (window as unknown as Record<string, State | undefined>)[key]
        if (!state) throw new Error('the Presentation stand-in is closed')
        return state[field as 'seen' | 'loads']
      },
      { key: STATE, field: field as string },
    ) as Promise<State[Field]>

  return {
    frame,
    messages: () => read('seen'),
    loads: () => read('loads'),
    text: () => frame.evaluate(() => document.body?.innerText ?? ''),
    refresh: (source = 'mutation') =>
      page.evaluate(
        ({ key, source }) => {
          const state = (window as unknown as Record<string, State | undefined>)[key]
          if (!state) throw new Error('the Presentation stand-in is closed')
          state.post('presentation/refresh', { source, livePreviewEnabled: false })
          return performance.timeOrigin + performance.now()
        },
        { key: STATE, source },
      ),
    watchFor: async (text, selector = 'body', timeoutMs = 60_000) => {
      // The observer lives in the frame's document, which refreshes keep.
      const watch = await frame.evaluateHandle(
        ({ text, selector }) => {
          const now = () => performance.timeOrigin + performance.now()
          const shows = () =>
            [...document.querySelectorAll(selector)].some((element) => element.textContent?.includes(text))
          if (shows()) return { shown: Promise.resolve(now()) }
          return {
            shown: new Promise<number>((resolve) => {
              const observer = new MutationObserver(() => {
                if (!shows()) return
                resolve(now())
                observer.disconnect()
              })
              observer.observe(document, { childList: true, subtree: true, characterData: true })
            }),
          }
        },
        { text, selector },
      )
      return async () => {
        let timer: ReturnType<typeof setTimeout> | undefined
        try {
          return await Promise.race([
            watch.evaluate((watching) => watching.shown),
            new Promise<never>((_, reject) => {
              timer = setTimeout(
                () =>
                  reject(
                    new Error(
                      `Presentation stand-in: "${text}" never showed in ${selector} of the frame within ${timeoutMs} ms`,
                    ),
                  ),
                timeoutMs,
              )
            }),
          ])
        } finally {
          clearTimeout(timer)
          await watch.dispose().catch(() => undefined)
        }
      }
    },
    renders: () => [...renders.values()].map((render) => ({ ...render })),
    close: async () => {
      page.off('request', onRequest)
      page.off('requestfinished', onEnd)
      page.off('requestfailed', onEnd)
      await page.evaluate((key) => {
        const store = window as unknown as Record<string, State | undefined>
        const state = store[key]
        if (!state) return
        window.removeEventListener('message', state.listen)
        state.frame.remove()
        delete store[key]
      }, STATE)
    },
  }
}
