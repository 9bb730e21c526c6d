/** The publish gate: every page's same-site links, and the changed pages' HTML (docs/publishing.md). */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import PQueue from 'p-queue'
import { indexSite, resolvePath, urlPathOf, type SiteIndex } from '../../lib/build-output.ts'
import { attributeOf, elementsOf } from '../../lib/html-elements.ts'
import { checkHtml, startHtmlChecker, type HtmlChecker, type HtmlError } from './nu-html-checker.ts'
import { readPageDocuments } from '../../lib/page-documents.ts'

export type GateOptions = {
  /** Run the Nu HTML checker on the changed pages (needs Java 17). */
  html: boolean
  /** `checkHtml`'s contract (the default, a JVM per gate); the publisher gives `WarmHtmlChecks`. */
  checkHtml?: (root: string, files: readonly string[]) => Promise<HtmlError[]>
  /** Called once a build prints CONTENT_CHECKED_LINE, so a slow checker starts while it renders. */
  warmUp?: () => void
}

const [HREF, SRC, SRCSET] = [['href'], ['src'], ['src', 'srcset']]
const URL_ATTRIBUTES: Record<string, string[]> = {
  a: HREF,
  link: HREF,
  img: SRCSET,
  source: SRCSET,
  script: SRC,
  iframe: SRC,
}

/** The same-site paths a page refers to (`/x`, not `//host` or `https://...`), without query or hash. */
export function sitePathsOf(html: string): string[] {
  const paths = new Set<string>()
  for (const element of elementsOf(html))
    for (const name of URL_ATTRIBUTES[element.tagName] ?? []) {
      const value = attributeOf(element, name) ?? ''
      const urls = name === 'srcset' ? value.split(',').map((part) => part.trim().split(/\s+/)[0]!) : [value]
      for (const url of urls)
        if (url.startsWith('/') && !url.startsWith('//')) paths.add(url.replace(/[?#].*$/, '') || '/')
    }
  return [...paths]
}

type Page = { file: string; paths: string[]; changed: boolean }

/** The last gate's paths by sha1 of the page: parsing every page took most of a gate at 1,000 case studies. */
let pathsByContent = new Map<string, string[]>()

/** Every HTML page of `candidate`; changed: new, or not the same bytes as in `live`. */
async function readPages(candidate: string, index: SiteIndex, live: string | null): Promise<Page[]> {
  const files = [...index].filter((file) => file.endsWith('.html')).sort()
  const known = pathsByContent
  const seen = new Map<string, string[]>()
  const pages = await Promise.all(
    files.map(async (file) => {
      const now = await readFile(path.join(candidate, file))
      const before = live ? await readFile(path.join(live, file)).catch(() => null) : null
      const hash = createHash('sha1').update(now).digest('hex')
      const paths = known.get(hash) ?? seen.get(hash) ?? sitePathsOf(now.toString('utf8'))
      seen.set(hash, paths)
      return { file, paths, changed: !before?.equals(now) }
    }),
  )
  pathsByContent = seen
  return pages
}

/** A link target as `urlPathOf` encodes it, whatever its own encoding. */
function pageKey(target: string): string {
  try {
    return encodeURI(decodeURIComponent(target))
  } catch {
    return target
  }
}

/** The form content errors use, which the Studio reads. */
const documentNames = (ids: readonly string[]) => ids.map((id) => `document "${id}"`).join(', ')

/**
 * Checks a finished build (absolute folders; `live` null when nothing is live).
 * @returns `pages` changed against the live build (all when none is), `problems` (none: it may go live) as
 *   lines naming the page and its documents, never a folder of this machine
 * @throws Error when the HTML checker cannot run although `html` asked for it
 */
export async function checkCandidate(candidate: string, live: string | null, options: GateOptions) {
  const started = performance.now()
  const [index, documents, liveDocuments] = await Promise.all([
    indexSite(candidate),
    readPageDocuments(candidate),
    live ? readPageDocuments(live) : null,
  ])
  const pages = await readPages(candidate, index, live)
  const label = (file: string) => {
    const ids = documents?.[urlPathOf(file)] ?? []
    return ids.length ? `${urlPathOf(file)} (${documentNames(ids)})` : urlPathOf(file)
  }
  const problems: string[] = []
  // Pages share most targets: resolve each once.
  const missing = new Map<string, boolean>()
  for (const page of pages)
    for (const target of page.paths) {
      let gone = missing.get(target)
      if (gone === undefined) missing.set(target, (gone = resolvePath(index, target).kind === 'not-found'))
      if (!gone) continue
      // The editor who unpublished a case study reads its page is still linked to.
      const was = liveDocuments?.[pageKey(target)]
      problems.push(
        `${label(page.file)} links to ${target}, which does not exist` +
          (was?.length ? ` (on the live site, the page of ${documentNames(was)})` : ''),
      )
    }
  const changed = pages.filter((page) => page.changed).map((page) => page.file)
  if (options.html && changed.length)
    for (const error of await (options.checkHtml ?? checkHtml)(candidate, changed))
      problems.push(
        `${label(error.file)} is not valid HTML: ${error.message}${error.line ? ` (line ${error.line})` : ''}`,
      )
  return {
    pages: changed.map(urlPathOf),
    linkedPages: pages.length,
    problems,
    ms: Math.round(performance.now() - started),
  }
}

/**
 * The checker's service, started on `warm` or the first check and kept; a failed check restarts it
 * and runs once more, and a second failure throws (the gate never passes unchecked).
 */
export class WarmHtmlChecks {
  #checker: Promise<HtmlChecker> | null = null
  #queue = new PQueue({ concurrency: 1 })
  readonly #stopping = new AbortController()
  readonly #onStart: (startMs: number, pid: number) => void

  /** @param onStart called on each start with its ms and the Java process id */
  constructor(onStart: (startMs: number, pid: number) => void = () => {}) {
    this.#onStart = onStart
  }

  /** `checkHtml`'s contract, one at a time; throws when it cannot start, fails twice, or after `stop()`. */
  check = (root: string, files: readonly string[]): Promise<HtmlError[]> =>
    this.#queue.add(async () => {
      let failure: Error | null = null
      for (let attempt = 0; attempt < 2; attempt++) {
        const checker = await this.#running()
        try {
          return await checker.check(root, files)
        } catch (error) {
          failure = error as Error
          this.#checker = null
          await checker.stop()
        }
      }
      throw new Error(`the HTML checker failed twice, restarted between: ${failure?.message}`)
    })

  /** Starts the service unless it runs; a failed start is left to the next check, which says why. */
  warm = (): void => void this.#queue.add(() => this.#running()).catch(() => {})

  async #running(): Promise<HtmlChecker> {
    const signal = this.#stopping.signal
    if (signal.aborted) throw new Error('the HTML checker was stopped (the publisher is shutting down)')
    const current = await this.#checker?.catch(() => null)
    if (current?.running) return current
    await current?.stop()
    const started = performance.now()
    this.#checker = startHtmlChecker({ signal })
    const checker = await this.#checker
    this.#onStart(Math.round(performance.now() - started), checker.pid)
    return checker
  }

  /** Stops the service, also while it starts, and resolves once Java has exited; later checks throw. */
  async stop(): Promise<void> {
    this.#stopping.abort()
    await (await this.#checker?.catch(() => null))?.stop()
  }
}
