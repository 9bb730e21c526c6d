/**
 * The publish gate: the fast checks a finished build passes before it may go live.
 * - Every page's internal links and assets: every same-site `href`, `src` and `srcset`
 *   must resolve to a file of the candidate build, by the same mapping the server and
 *   static hosts use (`resolvePath`). Every page, not only the changed ones: unpublishing
 *   a case study changes the pages that list it, but a text link to it in another case
 *   study sits in a page whose HTML did not change. A link to `/case-studies/nope` keeps
 *   the old site live.
 * - The W3C Nu HTML checker (Java) on the pages that changed against the live build
 *   (every page when nothing is live): a page's HTML is byte for byte the same from one
 *   build to the next unless its content changed (Next's per-build id sits only in the
 *   payload files). The publisher says at startup which checks it runs.
 * A failure becomes the build's reason, one line a problem, naming the page and the
 * documents it shows (the build's `.page-documents.json`, lib/page-documents.ts) in the
 * form content errors use, so the Studio can show each document its own lines, e.g.
 * `/case-studies/x (document "caseStudy-x") links to /case-studies/nope, which does not exist`.
 * A missing page that the live build has as a document's page names that document too.
 * A build without the file (an older one) gets the same lines without the documents.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { indexSite, resolvePath, urlPathOf, type SiteIndex } from '../lib/build-output.ts'
import { attributeOf, elementsOf } from '../lib/html-elements.ts'
import { checkHtml, startHtmlChecker, type HtmlChecker, type HtmlError } from './nu-html-checker.ts'
import { readPageDocuments } from '../lib/page-documents.ts'

/** What the gate found. `problems` empty: the build may go live. */
export type GateResult = {
  /** The pages that changed against the live build (every page when nothing is live). */
  pages: string[]
  /** How many pages' links were checked: every page of the build. */
  linkedPages: number
  problems: string[]
  ms: number
}

export type GateOptions = {
  /** Run the Nu HTML checker on the changed pages (needs Java 17). */
  html: boolean
  /**
   * How the changed pages' HTML is checked, with `checkHtml`'s contract: the publisher's
   * warm service (`WarmHtmlChecks`); default `checkHtml`, a JVM started for each gate.
   */
  checkHtml?: (root: string, files: readonly string[]) => Promise<HtmlError[]>
  /**
   * Called once a build is past its content check (the build's CONTENT_CHECKED_LINE), before
   * its gate: a checker that takes a while to start (`WarmHtmlChecks.warm`) starts while the
   * build renders, not after it, and not for a build that fails in its first seconds.
   */
  warmUp?: () => void
}

/** Attributes that name a same-site resource, by element. */
const URL_ATTRIBUTES: Record<string, string[]> = {
  a: ['href'],
  link: ['href'],
  img: ['src', 'srcset'],
  source: ['src', 'srcset'],
  script: ['src'],
  iframe: ['src'],
}

/** The same-site paths a page refers to (`/x`, not `//host` or `https://...`), without query or hash. */
export function sitePathsOf(html: string): string[] {
  const paths = new Set<string>()
  for (const element of elementsOf(html)) {
    for (const name of URL_ATTRIBUTES[element.tagName] ?? []) {
      const value = attributeOf(element, name)
      if (!value) continue
      const urls =
        name === 'srcset' ? value.split(',').map((part) => part.trim().split(/\s+/)[0] ?? '') : [value]
      for (const url of urls) {
        if (!url.startsWith('/') || url.startsWith('//')) continue
        paths.add(url.replace(/[?#].*$/, '') || '/')
      }
    }
  }
  return [...paths]
}

/**
 * One page of the candidate: its file, the same-site paths it refers to (`sitePathsOf`),
 * and whether it differs from the live build's.
 */
type Page = { file: string; paths: string[]; changed: boolean }

/**
 * The same-site paths of each page the last gate read, by the sha1 of its HTML: a publish
 * changes a few pages, and the others' bytes, hence their paths, are the same (parsing
 * every page again took most of a gate at 1,000 case studies). Each gate keeps only its own pages'.
 */
let pathsByContent = new Map<string, string[]>()

/**
 * Every HTML file of `candidate`, each read once, with its same-site paths; changed: new,
 * or not the same bytes as in `live`.
 */
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

/** A link target as the page documents key it (`urlPathOf`'s percent-encoding), whatever its own encoding. */
function pageKey(target: string): string {
  try {
    return encodeURI(decodeURIComponent(target))
  } catch {
    return target
  }
}

/** `document "a", document "b"`: the form `Invalid content: document "x"` uses. */
const documentNames = (ids: readonly string[]) => ids.map((id) => `document "${id}"`).join(', ')

/**
 * Checks a finished build before it goes live (see the module comment).
 * @param candidate absolute folder of the finished build
 * @param live absolute folder of the live build, or null
 * @returns the changed pages, how many pages' links were checked, every problem in words
 *   (empty: pass; page paths only, never a folder of this machine) and the time taken
 * @throws Error when the HTML checker cannot run although `html` asked for it
 */
export async function checkCandidate(
  candidate: string,
  live: string | null,
  options: GateOptions,
): Promise<GateResult> {
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
  // Pages share most targets (scripts, fonts, the header's links): resolve each once.
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
 * The publisher's HTML checks: the Nu checker's HTTP service (`startHtmlChecker`), started
 * when the first build starts (`warm`) or on the first check, not before (the publisher
 * starts fast), and kept for every later one: a gate then costs the check, not the JVM
 * and the checker starting. When a check
 * fails (the service died, or answered wrong) the service is stopped, started again and
 * the check run once more; a second failure throws, so the gate fails, never passes unchecked.
 */
export class WarmHtmlChecks {
  /** The service, or its start; null before the first check and after a failure. */
  #checker: Promise<HtmlChecker> | null = null
  /** Checks run one after the other (the publisher's gates do anyway). */
  #queue: Promise<unknown> = Promise.resolve()
  readonly #stopping = new AbortController()
  readonly #onStart: (startMs: number, pid: number) => void

  /**
   * @param onStart called each time the service has started: how long it took (ms) and its
   *   Java process id
   */
  constructor(onStart: (startMs: number, pid: number) => void = () => {}) {
    this.#onStart = onStart
  }

  /**
   * Checks HTML files: `checkHtml`'s contract (GateOptions.checkHtml), on the warm service.
   * @param root absolute folder the files are in
   * @param files HTML files relative to root
   * @returns the errors, file relative to root
   * @throws Error when the service cannot start, or a check fails twice (restarted between),
   *   or after `stop()`
   */
  check = (root: string, files: readonly string[]): Promise<HtmlError[]> => {
    const run = this.#queue.then(() => this.#check(root, files))
    this.#queue = run.catch(() => {})
    return run
  }

  /**
   * Starts the service now, unless it runs or is starting, so that the next check does not
   * wait for it (the publisher calls it once a build is past its content check: about 14 s
   * of Java start-up then overlap the build's render instead of following it). A failed start is left to that check,
   * which starts it again and says why.
   */
  warm = (): void => {
    this.#queue = this.#queue.then(() => this.#running()).catch(() => {})
  }

  async #check(root: string, files: readonly string[]): Promise<HtmlError[]> {
    let failure: Error | null = null
    for (let attempt = 0; attempt < 2; attempt++) {
      const checker = await this.#running()
      try {
        return await checker.check(root, files)
      } catch (error) {
        failure = error as Error
        // Dead or answering wrong: the next attempt, and the next gate, start a new one.
        this.#checker = null
        await checker.stop()
      }
    }
    throw new Error(`the HTML checker failed twice, restarted between: ${failure?.message}`)
  }

  /** The running service; started when there is none, it failed to start, or it has exited. */
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

  /**
   * Stops the service, also while it starts; later checks throw.
   * @returns when the Java process has exited
   */
  async stop(): Promise<void> {
    this.#stopping.abort()
    const checker = await this.#checker?.catch(() => null)
    await checker?.stop()
  }
}
