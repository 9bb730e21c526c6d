import type { CSSProperties } from 'react'
import { PREVIEW_DISABLE_PATH } from '@/lib/publisher-routes'

/** A draft the preview shows (lib/content `getPreviewDrafts`). */
export type PreviewBannerDraft = { id: string; type: string; title: string }

// Inline styles, not utility classes: the banner exists only in editors' previews, and the
// stylesheet that visitors download stays byte for byte the same.
const bar: CSSProperties = {
  position: 'fixed',
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

/**
 * The banner on every page of an editor's preview: "Preview", when the page was rendered,
 * the drafts it shows (each linked to its document in the Studio) and the way back to the
 * live site. Rendered only in the preview server's draft mode (app/site-document.tsx).
 * @param renderedAt ISO time of the render
 * @param drafts the drafts in it, newest first
 * @param studioUrl the Studio's address, e.g. '/studio' or 'https://agency.sanity.studio'
 */
export function PreviewBanner({
  renderedAt,
  drafts,
  studioUrl,
}: {
  renderedAt: string
  drafts: PreviewBannerDraft[]
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
            'No drafts: this is the published content'
          ) : (
            <>
              Drafts:{' '}
              {drafts.map((draft, index) => (
                <span key={draft.id}>
                  {index > 0 && ', '}
                  <a
                    style={link}
                    href={`${studioUrl}/intent/edit/id=${encodeURIComponent(draft.id)};type=${draft.type}`}
                  >
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
    </aside>
  )
}
