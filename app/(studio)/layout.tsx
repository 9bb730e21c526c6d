import type { ReactNode } from 'react'
import { HydratedMark } from '@/components/layout/HydratedMark'
import { jakarta, jakartaExtended } from '../fonts'
import '../globals.css'

/**
 * The Studio's own root layout: the embedded Studio fills the page, with none of the
 * site's header, footer, splash or skip link around it (Sanity's guide for a Studio
 * embedded in Next.js). The stylesheet and both font faces (`--font-sans` needs both) are
 * the site's, for the page that says how to set a project up (`StudioSetupNotice`); the
 * hydration mark is every page's.
 */
export default function StudioLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en-GB" className={`${jakarta.variable} ${jakartaExtended.variable}`}>
      <body>
        <HydratedMark />
        {children}
      </body>
    </html>
  )
}
