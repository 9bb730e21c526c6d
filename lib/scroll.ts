/** Motion and scrolling helpers for the browser; smooth unless the visitor asked for reduced motion. */

/** The class of a section the browser renders only near the viewport (globals.css: `content-visibility: auto`). */
export const DEFERRED_SECTION_CLASS = 'render-when-near'
/** Set on a deferred section once it is to be rendered for good (globals.css: `content-visibility: visible`). */
export const RENDERED_ATTRIBUTE = 'data-rendered'

function deferredSections(): HTMLElement[] {
  return Array.from(
    document.querySelectorAll<HTMLElement>(`.${DEFERRED_SECTION_CLASS}:not([${RENDERED_ATTRIBUTE}])`),
  )
}

/** Renders now every deferred section of the page (after a client-side navigation). */
export function renderDeferredSections(): void {
  for (const section of deferredSections()) section.setAttribute(RENDERED_ATTRIBUTE, '')
}

/** Renders now every deferred section before `target`: their placeholder heights would stop a smooth scroll short. */
export function renderSectionsBefore(target: Element): void {
  for (const section of deferredSections()) {
    if (section.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING) {
      section.setAttribute(RENDERED_ATTRIBUTE, '')
    }
  }
}

/** Renders the deferred sections one at a time when the browser is idle (docs/speed.md); returns a stop function. */
export function renderDeferredSectionsWhenIdle(): () => void {
  const queue = deferredSections()
  let handle: number | undefined
  const idle = typeof window.requestIdleCallback === 'function'
  const schedule = () => {
    if (queue.length === 0) return
    handle = idle ? window.requestIdleCallback(next, { timeout: 1000 }) : window.setTimeout(next, 50)
  }
  const next = () => {
    queue.shift()?.setAttribute(RENDERED_ATTRIBUTE, '')
    schedule()
  }
  schedule()
  return () => {
    if (handle === undefined) return
    if (idle) window.cancelIdleCallback(handle)
    else window.clearTimeout(handle)
    queue.length = 0
  }
}

/** Whether the visitor asked for reduced motion (`prefers-reduced-motion: reduce`); false on the server. */
export function prefersReducedMotion(): boolean {
  return (
    typeof window !== 'undefined' && Boolean(window.matchMedia?.('(prefers-reduced-motion: reduce)').matches)
  )
}

export function scrollBehavior(): ScrollBehavior {
  return prefersReducedMotion() ? 'auto' : 'smooth'
}

/**
 * Scrolls to the element with this id, rendering the deferred sections before it; when it is not on
 * the page yet, tries again every `delayMs` (spec §9), up to `attempts` times. Resolves whether found.
 */
export function scrollToAnchor(
  id: string,
  { attempts = 10, delayMs = 100 }: { attempts?: number; delayMs?: number } = {},
): Promise<boolean> {
  return new Promise((resolve) => {
    const attempt = (left: number) => {
      const target = document.getElementById(id)
      if (target) {
        renderSectionsBefore(target)
        target.scrollIntoView({ behavior: scrollBehavior(), block: 'start' })
        return resolve(true)
      }
      if (left <= 1) return resolve(false)
      setTimeout(() => attempt(left - 1), delayMs)
    }
    attempt(attempts)
  })
}
