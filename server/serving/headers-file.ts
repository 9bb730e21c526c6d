/** A build's `_headers` (Netlify's parser), applied as those hosts do: every matching rule, in file order. */
import { parseAllHeaders, type Header } from '@netlify/headers-parser'

/** A `_headers` file's rules (absolute path; none without one). @throws Error listing its parse errors */
export async function loadHeaderRules(file: string): Promise<readonly Header[]> {
  const { headers, errors } = await parseAllHeaders({
    headersFiles: [file],
    configHeaders: [],
    minimal: false,
  })
  if (errors.length) throw new Error(`${file}: ${errors.map((error) => error.message).join('; ')}`)
  return headers as Header[]
}

/** The headers for a percent-encoded URL path; later rules win for the same name. */
export const headersFor = (rules: readonly Header[], urlPath: string): Record<string, string> =>
  Object.assign({}, ...rules.filter((rule) => rule.forRegExp.test(urlPath)).map((rule) => rule.values))
