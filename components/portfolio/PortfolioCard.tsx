import { stegaClean } from 'next-sanity'
import { CardShell } from '@/components/ui/CardShell'
import type { ContentImage as ContentImageData } from '@/lib/content/image'
import { siteHost } from '@/lib/text'

/** A portfolio site (spec §3): title, description, image and its https address. */
export type PortfolioSiteData = {
  _id: string
  title: string
  description: string
  url: string
  image: ContentImageData
  /** In an editor's preview: the shown host's `data-sanity` link to the `url` field. */
  urlSource?: string
}

/** One site of 'Our Portfolio' (spec §2), its 'Visit site' link in a new tab; the address is cleaned of stega. */
export function PortfolioCard({ site, priority = false }: { site: PortfolioSiteData; priority?: boolean }) {
  const url = stegaClean(site.url)
  const host = siteHost(url)
  return (
    <CardShell image={site.image} priority={priority} imageDivider>
      <h2 className="text-xl font-bold">{site.title}</h2>
      {/* Spread: visitors' payload names no attribute at all. */}
      <p {...(site.urlSource && { 'data-sanity': site.urlSource })} className="mt-1 text-sm text-muted">
        {host}
      </p>
      <p className="mt-3 flex-1 text-muted">{site.description}</p>
      <a
        href={url}
        target="_blank"
        rel="noopener noreferrer"
        className="mt-5 inline-flex min-h-11 items-center gap-2 self-start font-semibold text-accent hover:underline"
      >
        Visit site
        <span className="sr-only">: {site.title} (opens in a new tab)</span>
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4">
          <path d="M7 5h8v8M15 5l-9 9" fill="none" stroke="currentColor" strokeWidth="2" />
        </svg>
      </a>
    </CardShell>
  )
}
