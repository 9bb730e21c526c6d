/**
 * Edits for the build steps that rewrite exported pages by their parse5 source
 * locations (defer-framework-scripts.ts, adaptive-font-preload.ts; the elements come
 * from lib/html-elements.ts): they change only the bytes they mean to, and leave the
 * rest of the document exactly as Next wrote it.
 */

/** Replace `html.slice(start, end)` with `text` ('' to cut; start === end to insert). */
export type HtmlEdit = { start: number; end: number; text?: string }

/**
 * Applies edits at offsets of the original string (e.g. parse5's `sourceCodeLocation`).
 * @param html the original document
 * @param edits non-overlapping edits, in any order; an insertion sorts before a cut at the same offset
 * @returns the edited document
 */
export function applyEdits(html: string, edits: readonly HtmlEdit[]): string {
  let out = ''
  let from = 0
  for (const edit of [...edits].sort((a, b) => a.start - b.start || a.end - b.end)) {
    out += html.slice(from, edit.start) + (edit.text ?? '')
    from = edit.end
  }
  return out + html.slice(from)
}
