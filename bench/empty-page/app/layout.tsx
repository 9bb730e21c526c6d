import type { ReactNode } from 'react'

/** The baseline for speed figures: an empty Next.js page built by the site's own toolchain. */
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  )
}
