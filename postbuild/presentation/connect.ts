/**
 * Connects a preview page to the Studio's Presentation tool with Sanity's visual editing:
 * - the tool's address bar follows the page, through Next's client navigations (the
 *   History API) and full loads alike, and the tool can navigate the page;
 * - when a draft changes, the page reloads once the publisher's next preview build,
 *   which holds the change, is ready (lib/preview-rebuild.ts); the tool's own reload
 *   button reloads at once.
 * Browser code, bundled on its own for preview builds only: visitors' builds, and Next's
 * build of the site, never contain it.
 */
import { enableVisualEditing, type HistoryAdapter, type HistoryRefresh } from '@sanity/visual-editing'
import { HEALTH_PATH, waitForPreviewBuild } from '../../lib/preview-rebuild.ts'

const here = () => `${location.pathname}${location.search}${location.hash}`

const history: HistoryAdapter = {
  subscribe(navigate) {
    let last = ''
    const report = () => {
      if (here() === last) return
      last = here()
      navigate({ type: 'push', url: last })
    }
    const originals = { pushState: window.history.pushState, replaceState: window.history.replaceState }
    for (const method of ['pushState', 'replaceState'] as const)
      window.history[method] = function (...args: Parameters<History['pushState']>) {
        originals[method].apply(this, args)
        report()
      }
    window.addEventListener('popstate', report)
    report()
    return () => {
      Object.assign(window.history, originals)
      window.removeEventListener('popstate', report)
    }
  },
  update(update) {
    if (update.type === 'pop') window.history.back()
    else if (update.url !== here()) location.assign(update.url)
  },
}

/** Reloads the page; the promise never settles, since the page goes away. */
function reload(): Promise<void> {
  location.reload()
  return new Promise(() => {})
}

function refresh(payload: HistoryRefresh): Promise<void> {
  if (payload.source !== 'mutation') return reload()
  const health = async () => (await fetch(HEALTH_PATH, { cache: 'no-store' })).json()
  return waitForPreviewBuild(health).then(reload, (error: Error) => {
    console.error(`preview: ${error.message}; reloading now`)
    return reload()
  })
}

enableVisualEditing({ history, refresh })
