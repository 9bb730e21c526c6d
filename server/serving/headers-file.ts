/** A build's `_headers` (Netlify's parser), applied as those hosts do: every matching rule, in file order. */
import { access } from 'node:fs/promises'
import { parseAllHeaders, type Header } from '@netlify/headers-parser'

export type HeaderRules = readonly Header[]

/**
 * The rules of a `_headers` file (absolute path), none when it does not exist.
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

/** The headers for a percent-encoded URL path; later rules win for the same name. */
export function headersFor(rules: HeaderRules, urlPath: string): Record<string, string> {
  const result: Record<string, string> = {}
  for (const rule of rules) if (rule.forRegExp.test(urlPath)) Object.assign(result, rule.values)
  return result
}
