import type { CSSProperties } from 'react'
import type { PreviewProblem } from '@/lib/content'
import { PREVIEW_DISABLE_PATH } from '@/lib/publisher-routes'
import { studioEditHref } from '@/lib/studio'

/** A draft the preview shows (lib/content `getPreviewDrafts`). */
export type PreviewBannerDraft = { id: string; type: string; title: string }

// Inline styles keep visitors' stylesheet as it is. Last on the page, so at the end it leaves the footer reachable.
const bar: CSSProperties = {
  position: 'sticky',
  insetInline: 0,
  bottom: 0,
  zIndex: 60,
  background: 'var(--color-ink)',
  color: 'var(--color-on-ink)',
  fontSize: '0.875rem',
  lineHeight: 1.5,
  padding: '0.75rem 1.25rem',
  boxShadow: '0 -8px 24px -12px rgb(0 0 0 / 0.4)',
}
const row: CSSProperties = { display: 'flex', flexWrap: 'wrap', gap: '0.5rem 1.5rem', alignItems: 'baseline' }
const link: CSSProperties = { color: 'inherit', textDecoration: 'underline' }
const problemsBox: CSSProperties = { maxBlockSize: '40vh', overflowY: 'auto', marginBlockStart: '0.5rem' }
const heading: CSSProperties = { fontSize: 'inherit', fontWeight: 700, margin: 0 }
const list: CSSProperties = { margin: '0.25rem 0 0', paddingInlineStart: '1.25rem', listStyle: 'disc' }
const code: CSSProperties = { fontFamily: 'ui-monospace, monospace', fontSize: '0.8125rem' }

/** A draft's problems, together: the first carries what the draft is and what is shown instead. */
function byDocument(problems: PreviewProblem[]): PreviewProblem[][] {
  return [...Map.groupBy(problems, (problem) => problem.documentId).values()]
}

/**
 * The banner of an editor's preview: when it rendered (ISO), the drafts it shows (newest first),
 * the rules broken by drafts it leaves out, each linked into the Studio at `studioUrl`.
 */
export function PreviewBanner({
  renderedAt,
  drafts,
  problems = [],
  studioUrl,
}: {
  renderedAt: string
  drafts: PreviewBannerDraft[]
  problems?: PreviewProblem[]
  studioUrl: string
}) {
  const time = new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'medium',
    timeStyle: 'medium',
    timeZone: 'UTC',
  }).format(new Date(renderedAt))
  return (
    <aside aria-label="Preview" data-preview-banner="" style={bar}>
      <div style={row}>
        <strong>Preview</strong>
        <span>
          Rendered <time dateTime={renderedAt}>{time} UTC</time>
        </span>
        <span>
          {drafts.length === 0 ? (
            problems.length === 0 ? (
              'No drafts: this is the published content'
            ) : (
              'No drafts shown'
            )
          ) : (
            <>
              Drafts:{' '}
              {drafts.map((draft, index) => (
                <span key={draft.id}>
                  {index > 0 && ', '}
                  <a style={link} href={studioEditHref(studioUrl, { id: draft.id, type: draft.type })}>
                    {draft.title}
                  </a>
                </span>
              ))}
            </>
          )}
        </span>
        <a style={{ ...link, fontWeight: 600, marginInlineStart: 'auto' }} href={PREVIEW_DISABLE_PATH}>
          Leave preview
        </a>
      </div>
      {problems.length > 0 && (
        <section aria-labelledby="preview-problems" style={problemsBox}>
          <h2 id="preview-problems" style={heading}>
            Not shown: drafts that break a rule
          </h2>
          <ul style={list}>
            {byDocument(problems).map((rules) => {
              const draft = rules[0]!
              return (
                <li key={draft.documentId}>
                  {draft.title} (<code style={code}>{draft.documentId}</code>):{' '}
                  {draft.shown === 'published'
                    ? 'not shown, it breaks a rule; the published version is shown instead.'
                    : 'not shown, it breaks a rule; it has no published version, so it is not on the page.'}
                  <ul style={list}>
                    {rules.map((rule, index) => (
                      <li key={index}>
                        <a
                          style={link}
                          href={studioEditHref(studioUrl, {
                            id: rule.publishedId,
                            type: rule.type,
                            path: rule.path ?? undefined,
                            release: rule.release,
                          })}
                        >
                          <code style={code}>{rule.field}</code>
                        </a>
                        : {rule.message}
                      </li>
                    ))}
                  </ul>
                </li>
              )
            })}
          </ul>
        </section>
      )}
    </aside>
  )
}
