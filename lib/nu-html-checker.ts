/**
 * The W3C Nu HTML checker (npm `vnu-jar`, Java 17) over a build's HTML files,
 * errors only. Two callers: `npm run audit:fast` (every page of a build) and the
 * publisher's gate (the pages a publish changed, before the build goes live).
 */
import { spawn, spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import path from 'node:path'

/** One error the checker reports. */
export type HtmlError = { file: string; line?: number; column?: number; message: string; extract?: string }

type VnuMessage = {
  type: string
  subType?: string
  url?: string
  lastLine?: number
  firstColumn?: number
  message: string
  extract?: string
}

/** Whether Java runs here (the checker needs it); the publisher asks once at startup. */
export function javaAvailable(): boolean {
  return spawnSync(process.env.JAVA ?? 'java', ['-version'], { stdio: 'ignore' }).status === 0
}

/** Path of vnu.jar inside node_modules. */
export function vnuJarPath(): string {
  return createRequire(import.meta.url).resolve('vnu-jar/build/dist/vnu.jar')
}

/**
 * Runs `java -jar vnu.jar --errors-only --format json` on the files (CSS messages filtered, see below).
 * @param root absolute folder the files are in
 * @param files HTML files relative to root
 * @returns the errors (also fatal ones and the checker's own I/O errors), file relative to root
 * @throws Error when Java does not start or prints no JSON
 */
export async function checkHtml(root: string, files: readonly string[]): Promise<HtmlError[]> {
  const args = [
    '-jar',
    vnuJarPath(),
    '--errors-only',
    // The checker also runs the W3C CSS validator over <style> elements, and that engine
    // predates CSS that every current browser ships (@property, @layer, nesting, margin-trim):
    // its "CSS:" messages on the inline Tailwind stylesheet (next.config inlineCss) are all
    // false. The HTML is what this check is for; Lightning CSS parses the stylesheet at build.
    '--filterpattern',
    'CSS: .*',
    '--format',
    'json',
    ...files,
  ]
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.env.JAVA ?? 'java', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let text = ''
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()))
    child.once('error', reject)
    child.once('close', () => resolve(text))
  })
  const start = output.indexOf('{"')
  if (start < 0) throw new Error(`vnu printed no JSON: ${output.slice(0, 500)}`)
  const { messages } = JSON.parse(output.slice(start)) as { messages: VnuMessage[] }
  return messages
    .filter(
      (message) =>
        message.type === 'error' || message.subType === 'fatal' || message.type === 'non-document-error',
    )
    .map((message) => ({
      file: message.url ? fileOf(root, message.url) : '(checker)',
      line: message.lastLine,
      column: message.firstColumn,
      message: message.message,
      extract: message.extract,
    }))
}

/** The checker names files by `file:` URL: back to a path relative to root. */
function fileOf(root: string, url: string): string {
  try {
    return path
      .relative(root, decodeURIComponent(new URL(url).pathname))
      .split(path.sep)
      .join('/')
  } catch {
    return url
  }
}
