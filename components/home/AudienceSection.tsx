import { ButtonLink, ConsultationButton } from '@/components/ui/ButtonLink'
import { Section } from '@/components/ui/Section'
import { EarningsCalculator } from './EarningsCalculator'
import { GrowthList } from './GrowthList'
import { StaggerList } from '@/components/ui/Stagger'

/**
 * Home section 4, 'IS THIS YOU' (spec §2): audience cards, the 'Less Grind.
 * More Growth' list, the earnings calculator, and buttons to /consultation and
 * /case-studies. Carries the `who-needs-it` anchor.
 */
export function AudienceSection({
  intro,
  calculatorIntro,
  cards,
  growthItems,
}: {
  intro: string
  calculatorIntro: string
  cards: { _id: string; title: string; description: string }[]
  growthItems: { _id: string; title: string; content: string }[]
}) {
  return (
    <Section id="who-needs-it" eyebrow="Who it is for" title="IS THIS YOU" intro={intro}>
      <StaggerList className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
        {cards.map((card, index) => (
          <li key={card._id} className="rounded-ui border border-line bg-surface p-7 shadow-soft">
            <span aria-hidden="true" className="text-sm font-bold text-accent tabular-nums">
              {String(index + 1).padStart(2, '0')}
            </span>
            <h3 className="mt-3 text-xl font-bold">{card.title}</h3>
            <p className="mt-2 text-muted">{card.description}</p>
          </li>
        ))}
      </StaggerList>
      <div className="mt-16 grid items-start gap-10 lg:grid-cols-2 lg:gap-14">
        <GrowthList items={growthItems} />
        <EarningsCalculator intro={calculatorIntro} />
      </div>
      <div className="mt-12 flex flex-col gap-3 sm:flex-row">
        <ConsultationButton />
        <ButtonLink href="/case-studies" variant="secondary">
          View Case Studies
        </ButtonLink>
      </div>
    </Section>
  )
}
