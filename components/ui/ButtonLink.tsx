import { IntentLink } from './IntentLink'
import type { ReactNode } from 'react'

const base =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-ui px-6 py-3 text-base font-semibold transition-colors duration-200 ease-out'

/** The design system's two button styles. */
export const buttonStyles = {
  primary: `${base} bg-accent text-surface shadow-soft hover:bg-accent-strong`,
  secondary: `${base} border border-line-strong bg-surface text-ink hover:border-ink`,
  onInk: `${base} border border-on-ink-muted/40 text-on-ink hover:border-on-ink`,
} as const

/** A link styled as a button: 'primary' for the consultation calls to action. */
export function ButtonLink({
  href,
  variant = 'primary',
  children,
  className = '',
}: {
  href: string
  variant?: keyof typeof buttonStyles
  children: ReactNode
  className?: string
}) {
  return (
    <IntentLink href={href} className={`${buttonStyles[variant]} ${className}`}>
      {children}
    </IntentLink>
  )
}

/** The spec's call to action to /consultation (spec §1: 'Book a Free Consultation Now'). */
export function ConsultationButton({ className = '' }: { className?: string }) {
  return (
    <ButtonLink href="/consultation" className={className}>
      Book a Free Consultation Now
      <span aria-hidden="true">→</span>
    </ButtonLink>
  )
}
