import type { ReactNode } from 'react'

/**
 * The top of an inner page: eyebrow, h1 and intro, on the page's one content width.
 * @param title the page's h1 (spec strings, e.g. 'Free Consultation')
 */
export function PageHeader({
  eyebrow,
  title,
  intro,
  children,
}: {
  eyebrow?: string
  title: string
  intro?: string
  children?: ReactNode
}) {
  return (
    <div className="content-width pt-14 pb-10 md:pt-20 md:pb-14">
      {eyebrow && <p className="eyebrow text-accent">{eyebrow}</p>}
      <h1 className="display mt-3 max-w-4xl text-3xl md:text-4xl">{title}</h1>
      {intro && <p className="mt-5 max-w-prose text-lg text-muted">{intro}</p>}
      {children}
    </div>
  )
}
