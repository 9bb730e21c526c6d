/**
 * The repository paths and npm scripts Markdown names, and which of them name nothing:
 * a path is a word of code (span or fenced block) whose first segment is a top-level name;
 * an npm script is `npm run <name>`, `npm start`, `npm stop` or `npm test`, prose included.
 */

/** What the check asks of the repository: package.json's scripts, and of a path from the root whether it exists or git ignores it. */
export type Repository = {
  scripts: ReadonlySet<string>
  exists: (relativePath: string) => boolean
  ignored: (relativePath: string) => boolean
}

/** A path or npm script a document names, where it names it (line 1-based). */
export type Reference = { file: string; line: number; kind: 'path' | 'script'; name: string }

/** A reference to something that does not exist, ready to print. */
export type Problem = { file: string; line: number; message: string }

/** `npm run <name>`, or an npm command that runs the script of its own name (group 2). */
const NPM_COMMAND = /\bnpm\s+(?:(?:run|run-script)(?:\s+-{1,2}[\w-]+)*\s+([\w:.-]+)|(start|stop|test)\b)/g
const FENCE = /^ {0,3}(`{3,}|~{3,})/
const CODE_SPAN = /(?<!`)(`+)(?!`)((?:(?!\n[ \t]*\n)[\s\S])+?)(?<!`)\1(?!`)/g
const NOT_LITERAL = /[*?{}<>…]/

function lineAt(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length
}

/** A word of code without surrounding quotes, brackets, `./` and trailing punctuation. */
function trimWord(word: string): string {
  let trimmed = word.replace(/^[("'[]+/, '').replace(/^\.\//, '')
  for (;;) {
    const last = trimmed.at(-1)
    const unbalanced = last === ')' && trimmed.split(')').length > trimmed.split('(').length
    if (last === undefined || !(unbalanced || ',;:.!?"\''.includes(last))) return trimmed
    trimmed = trimmed.slice(0, -1)
  }
}

/** The text with fenced code blocks blanked out (offsets kept), and the blocks' lines with their offsets. */
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

/** The paths and npm scripts a Markdown document (`file` from the root) names, in order of appearance. */
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
  return found
    .sort((a, b) => a.offset - b.offset)
    .map(({ file, line, kind, name }) => ({ file, line, kind, name }))
}

/** The references that name nothing: missing paths git does not ignore, and undefined npm scripts. */
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
