import type { Metadata } from 'next'
import { NotFoundMessage } from '@/components/NotFoundMessage'

export const metadata: Metadata = { title: 'Page not found' }

/** The 404 page, exported as out/404.html (spec §2). */
export default function NotFound() {
  return <NotFoundMessage />
}
