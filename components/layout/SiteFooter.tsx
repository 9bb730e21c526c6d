import { stegaClean } from 'next-sanity'
import { footerItems } from '@/lib/navigation'
import { telHref } from '@/lib/text'
import { LinkList } from './LinkList'

/**
 * The footer (spec §2 item 9): anchor links, contact e-mail and phone, copyright 2025.
 * The e-mail and phone links are cleaned (stega: an href is never an overlay, and an
 * encoded address breaks); the shown texts keep theirs.
 * @param brandName, description, email, phone from site settings
 */
export function SiteFooter({
  brandName,
  description,
  email,
  phone,
}: {
  brandName: string
  description: string
  email: string
  phone: string
}) {
  return (
    <footer className="bg-ink text-on-ink">
      <div className="content-width grid gap-10 py-14 md:grid-cols-[1.5fr_1fr_1fr] md:py-20">
        <div>
          <p className="display text-xl uppercase">{brandName}</p>
          <p className="mt-4 max-w-sm text-on-ink-muted">{description}</p>
        </div>
        <nav aria-label="Footer">
          <h2 className="eyebrow text-on-ink-muted">Explore</h2>
          <LinkList
            items={footerItems}
            className="mt-4 space-y-1"
            linkClassName="inline-flex min-h-11 items-center hover:text-surface hover:underline"
          />
        </nav>
        <div>
          <h2 className="eyebrow text-on-ink-muted">Contact</h2>
          <ul className="mt-4 space-y-1">
            <li>
              <a
                href={`mailto:${stegaClean(email)}`}
                className="inline-flex min-h-11 items-center break-all hover:underline"
              >
                {email}
              </a>
            </li>
            <li>
              <a
                href={telHref(stegaClean(phone))}
                className="inline-flex min-h-11 items-center hover:underline"
              >
                {phone}
              </a>
            </li>
          </ul>
        </div>
      </div>
      <div className="border-t border-on-ink-muted/20">
        <p className="content-width py-6 text-sm text-on-ink-muted">
          © 2025 {brandName}. All rights reserved.
        </p>
      </div>
    </footer>
  )
}
