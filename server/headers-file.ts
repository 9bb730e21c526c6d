/**
 * Reads a build's `_headers` file (Netlify / Cloudflare Pages format) with
 * Netlify's own parser, and answers which headers apply to a path, the way
 * those hosts do: every matching rule applies, in file order.
 */
import { access } from 'node:fs/promises'
import { parseAllHeaders, type Header } from '@netlify/headers-parser'

/** Parsed rules of one `_headers` file. */
export type HeaderRules = readonly Header[]

/**
 * @param file absolute path of a `_headers` file
 * @returns its rules (none when the file does not exist)
 * @throws Error listing the parse errors when the file is malformed
 */
export async function loadHeaderRules(file: string): Promise<HeaderRules> {
  try {
    await access(file)
  } catch {
    return []
  }
  const { headers, errors } = await parseAllHeaders({
    headersFiles: [file],
    configHeaders: [],
    minimal: false,
  })
  if (errors.length) throw new Error(`${file}: ${errors.map((error) => error.message).join('; ')}`)
  return headers as Header[]
}

/**
 * The headers that apply to a URL path (later rules win for the same name).
 * @param urlPath a percent-encoded path, e.g. `/case-studies/Osteopath%20Lancing`
 */
export function headersFor(rules: HeaderRules, urlPath: string): Record<string, string> {
  const result: Record<string, string> = {}
  for (const rule of rules) if (rule.forRegExp.test(urlPath)) Object.assign(result, rule.values)
  return result
}
