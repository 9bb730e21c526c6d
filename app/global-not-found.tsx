import type { Metadata, Viewport } from 'next'
import { NotFoundMessage } from '@/components/NotFoundMessage'
import { SiteDocument, siteMetadata } from './site-document'

/** The site's metadata, with the title the site's template would give (no layout applies it here). */
export async function generateMetadata(): Promise<Metadata> {
  const metadata = await siteMetadata()
  const { template } = metadata.title as { template: string }
  return { ...metadata, title: template.replace('%s', 'Page not found') }
}

export const viewport: Viewport = { themeColor: '#f7f6f2' }

/** The 404 page, out/404.html (spec §2); Next gives it no layout, hence `SiteDocument`. */
export default function NotFound() {
  return (
    <SiteDocument>
      <NotFoundMessage />
    </SiteDocument>
  )
}
