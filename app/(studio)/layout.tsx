import type { ReactNode } from 'react'
import { HydratedMark } from '@/components/layout/HydratedMark'
import { jakarta, jakartaExtended } from '../fonts'
import '../globals.css'

/** The Studio's root layout: none of the site's chrome; the site's stylesheet and fonts for `StudioSetupNotice`. */
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
