import type { ReactNode } from 'react'
import { DEFERRED_SECTION_CLASS } from '@/lib/scroll'

/** A page section with the shared rhythm, h2 and intro; `id` is its anchor (spec §2). */
export function Section({
  id,
  eyebrow,
  title,
  intro,
  tone = 'paper',
  children,
}: {
  id?: string
  eyebrow?: string
  title: string
  intro?: string
  tone?: 'paper' | 'surface' | 'ink'
  children: ReactNode
}) {
  const tones = {
    paper: 'bg-paper text-ink',
    surface: 'bg-surface text-ink',
    ink: 'bg-ink text-on-ink',
  }
  const headingId = id ? `${id}-heading` : undefined
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className={`${DEFERRED_SECTION_CLASS} ${tones[tone]} py-16 md:py-24`}
    >
      <div className="content-width">
        <header className="max-w-prose">
          {eyebrow && (
            <p className={`eyebrow mb-3 ${tone === 'ink' ? 'text-on-ink-muted' : 'text-accent'}`}>
              {eyebrow}
            </p>
          )}
          <h2 id={headingId} className="display text-2xl md:text-3xl">
            {title}
          </h2>
          {intro && (
            <p className={`mt-4 text-lg ${tone === 'ink' ? 'text-on-ink-muted' : 'text-muted'}`}>{intro}</p>
          )}
        </header>
        <div className="mt-10 md:mt-14">{children}</div>
      </div>
    </section>
  )
}
