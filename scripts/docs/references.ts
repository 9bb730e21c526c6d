/**
 * What the docs name that must exist: repository paths and npm scripts, found in
 * Markdown text (scripts/check-docs.ts runs it on README.md, SECURITY.md and docs/*.md).
 *
 * The rule, so that a reference is judged only where it clearly means this repository:
 *
 * - Paths are read from code: inline code spans and fenced code blocks, each
 *   whitespace-separated word of them (`lib/content/image.ts`, `node scripts/build.ts`),
 *   with surrounding quotes, brackets and sentence punctuation trimmed. A word is a
 *   repository path when its first segment is a name at the repository's top level
 *   (`app`, `lib`, `docs`, `README.md`, `.github`, …), so `/healthz` (a URL path),
 *   `@sanity/types` (a package) and `schemaTypes/index.ts` (relative to a folder
 *   the text names) are not judged.
 * - Markdown links (`[text](target)`, `![alt](target)`) name a path relative to the
 *   file that holds them; the `#fragment` is dropped. Targets with a scheme
 *   (`https:`, `mailto:`) or starting with `/` or `#` are not paths.
 * - Not judged: globs and placeholders (a word with `*`, `?`, `{`, `}`, `<`, `>` or `…`)
 *   and whatever git ignores (`Repository.ignored`): build output and local state such as
 *   out/, .next/, .cache/, public/media/, studio/dist/, reports/ and .env.local.
 * - npm scripts are read from all of the text, prose included: `npm run <name>`
 *   (`npm run-script`, flags such as `--silent` between allowed) and the npm commands
 *   that run the script of their own name: `npm start`, `npm stop`, `npm test`.
 *   Other `npm <command>`s (`npm ci`, `npm audit`, …) are npm's own.
 */
import path from 'node:path'

/** What the check asks of the repository. */
export type Repository = {
  /** The scripts package.json defines. */
  scripts: ReadonlySet<string>
  /** Whether a path relative to the repository's root exists. */
  exists: (relativePath: string) => boolean
  /** Whether git ignores a path relative to the repository's root. */
  ignored: (relativePath: string) => boolean
}

/** A path or npm script a document names, where it names it. */
export type Reference = {
  file: string
  line: number
  kind: 'path' | 'script'
  /** The path relative to the repository's root (links resolved), or the script's name. */
  name: string
}

/** A reference to something that does not exist, ready to print. */
export type Problem = { file: string; line: number; message: string }

/** `npm run <name>`, or an npm command that runs the script of its own name (group 2). */
const NPM_COMMAND = /\bnpm\s+(?:(?:run|run-script)(?:\s+-{1,2}[\w-]+)*\s+([\w:.-]+)|(start|stop|test)\b)/g
const FENCE = /^ {0,3}(`{3,}|~{3,})/
const CODE_SPAN = /(?<!`)(`+)(?!`)((?:(?!\n[ \t]*\n)[\s\S])+?)(?<!`)\1(?!`)/g
const LINK = /!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g
const NOT_LITERAL = /[*?{}<>…]/
const SCHEME = /^[a-z][a-z\d+.-]*:/i

/** The line (1-based) of an offset in a text. */
function lineAt(text: string, offset: number): number {
  let line = 1
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1))
    line++
  return line
}

/**
 * A word of code as a path: surrounding quotes and brackets, a `./` and trailing
 * sentence punctuation trimmed (a `)` only when it closes nothing in the word).
 */
function trimWord(word: string): string {
  let trimmed = word.replace(/^[("'[]+/, '').replace(/^\.\//, '')
  for (;;) {
    const last = trimmed.at(-1)
    const unbalanced = last === ')' && trimmed.split(')').length > trimmed.split('(').length
    if (last === undefined || !(unbalanced || ',;:.!?"\''.includes(last))) return trimmed
    trimmed = trimmed.slice(0, -1)
  }
}

/**
 * The text with fenced code blocks blanked out (newlines kept, so offsets stay),
 * and the blocks' contents with their offsets.
 */
function splitFences(text: string): { prose: string; blocks: { offset: number; text: string }[] } {
  const blocks: { offset: number; text: string }[] = []
  let prose = ''
  let fence: string | undefined
  let offset = 0
  for (const line of text.split(/(?<=\n)/)) {
    const opening = FENCE.exec(line)?.[1]
    if (fence === undefined && opening) fence = opening
    else if (
      fence !== undefined &&
      opening !== undefined &&
      opening[0] === fence[0] &&
      opening.length >= fence.length
    )
      fence = undefined
    else if (fence !== undefined) blocks.push({ offset, text: line })
    prose += fence !== undefined || opening ? line.replace(/[^\n]/g, ' ') : line
    offset += line.length
  }
  return { prose, blocks }
}

/**
 * The paths and npm scripts a Markdown document names (see the module comment for
 * what counts), in order of appearance.
 * @param file the document's path relative to the repository's root, e.g. 'docs/content.md'
 * @param text its contents
 * @param topLevel names at the repository's top level: a word of code is a path when its first segment is one
 */
export function referencesIn(file: string, text: string, topLevel: ReadonlySet<string>): Reference[] {
  const found: (Reference & { offset: number })[] = []
  for (const command of text.matchAll(NPM_COMMAND)) {
    const name = (command[1] ?? command[2])!
    const offset = command.index + command[0].length - name.length
    found.push({ file, line: lineAt(text, offset), kind: 'script', name: name.replace(/[.:]+$/, ''), offset })
  }
  // A script's name is no path, even when a folder has the same name (`npm run studio`).
  const scriptNames = new Set(found.map(({ offset }) => offset))
  const { prose, blocks } = splitFences(text)
  const codeWords = (code: string, start: number) => {
    for (const match of code.matchAll(/\S+/g)) {
      const word = trimWord(match[0])
      const first = word.split('/')[0]!
      const offset = start + match.index
      if (!first || !topLevel.has(first) || NOT_LITERAL.test(word) || scriptNames.has(offset)) continue
      found.push({ file, line: lineAt(text, offset), kind: 'path', name: word, offset })
    }
  }
  for (const span of prose.matchAll(CODE_SPAN)) codeWords(span[2]!, span.index + span[1]!.length)
  for (const block of blocks) codeWords(block.text, block.offset)
  // Links outside code: code spans blanked out first.
  const outsideCode = prose.replace(CODE_SPAN, (span) => span.replace(/[^\n]/g, ' '))
  for (const link of outsideCode.matchAll(LINK)) {
    const target = decodeURI(link[1]!.split('#')[0]!)
    if (!target || target.startsWith('/') || SCHEME.test(link[1]!) || NOT_LITERAL.test(target)) continue
    const name = path.posix.normalize(path.posix.join(path.posix.dirname(file), target))
    found.push({ file, line: lineAt(text, link.index), kind: 'path', name, offset: link.index })
  }
  return found
    .sort((a, b) => a.offset - b.offset)
    .map(({ file, line, kind, name }) => ({ file, line, kind, name }))
}

/**
 * The references that name nothing: paths that do not exist (unless git ignores
 * them) and npm scripts package.json does not define.
 * @param references from `referencesIn`
 * @param repository what exists
 */
export function problemsOf(references: readonly Reference[], repository: Repository): Problem[] {
  const problems: Problem[] = []
  for (const { file, line, kind, name } of references) {
    if (kind === 'script') {
      if (!repository.scripts.has(name))
        problems.push({ file, line, message: `npm script "${name}" is not in package.json` })
    } else if (!repository.exists(name) && !repository.ignored(name)) {
      problems.push({ file, line, message: `${name} does not exist` })
    }
  }
  return problems
}
