import type { Metadata, Viewport } from 'next'
import type { ReactNode } from 'react'
import { SiteDocument, siteMetadata } from '../site-document'

export const generateMetadata = (): Promise<Metadata> => siteMetadata()

export const viewport: Viewport = { themeColor: '#f7f6f2' }

/** The site's root layout: every page but the Studio (which has its own) and the 404 page. */
export default function SiteLayout({ children }: { children: ReactNode }) {
  return <SiteDocument>{children}</SiteDocument>
}
