/** A chain of draft-only case studies, each linking the next one's page (the link rule queries the view for it). */
import type { StoredDocument } from '../../lib/content/source.ts'

/**
 * `length` copies of `study` as drafts `drafts.<tag>-<i>`; with `brokenEnd` the last links a page that does
 * not exist (so it breaks a rule, then the one linking it, and so on up the chain), else `/case-studies`.
 */
export function chainedDrafts(study: StoredDocument, length: number, tag: string, brokenEnd: boolean) {
  const last = brokenEnd ? `/case-studies/${tag}-missing` : '/case-studies'
  return Array.from({ length }, (_, index) => ({
    ...study,
    _id: `drafts.${tag}-${index}`,
    slug: { _type: 'slug', current: `${tag}-${index}` },
    legacyId: `${tag} ${index}`,
    title: `Chain ${index}`,
    order: 100 + index,
    issue: [
      {
        _type: 'block',
        _key: 'b1',
        style: 'normal',
        markDefs: [
          {
            _type: 'link',
            _key: 'l1',
            href: index + 1 < length ? `/case-studies/${tag}-${index + 1}` : last,
          },
        ],
        children: [
          {
            _type: 'span',
            _key: 's1',
            text: 'The next case study of the chain explains the rest of it, at some length, for the card.',
            marks: ['l1'],
          },
        ],
      },
    ],
  }))
}
