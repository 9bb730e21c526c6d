/** Offset edits of exported pages that change only the bytes they mean to, leaving the rest as Next wrote it. */

/** Replace `html.slice(start, end)` with `text` ('' to cut; start === end to insert). */
export type HtmlEdit = { start: number; end: number; text?: string }

/** Applies non-overlapping edits at offsets of the original string, in any order (an insertion sorts before a cut at the same offset). */
export function applyEdits(html: string, edits: readonly HtmlEdit[]): string {
  let out = ''
  let from = 0
  for (const edit of [...edits].sort((a, b) => a.start - b.start || a.end - b.end)) {
    out += html.slice(from, edit.start) + (edit.text ?? '')
    from = edit.end
  }
  return out + html.slice(from)
}
