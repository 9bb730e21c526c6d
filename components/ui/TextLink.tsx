import { IntentLink } from './IntentLink'
import type { ReactNode } from 'react'

/**
 * A standalone text link with an arrow (e.g. 'See More Like This →'), 44 px tall to tap.
 * @param href a site path
 * @param back true for a link back (arrow before the text)
 */
export function TextLink({
  href,
  back = false,
  className = '',
  children,
}: {
  href: string
  back?: boolean
  className?: string
  children: ReactNode
}) {
  return (
    <IntentLink
      href={href}
      className={`inline-flex min-h-11 items-center gap-2 font-semibold text-accent hover:underline ${className}`}
    >
      {back && <span aria-hidden="true">←</span>}
      {children}
      {!back && <span aria-hidden="true">→</span>}
    </IntentLink>
  )
}
