import type { ReactNode } from 'react'
import { ConsultationButton } from '@/components/ui/ButtonLink'
import { ABOVE_THE_FOLD_CARDS } from '@/components/ui/ContentImage'
import { PageHeader } from '@/components/ui/PageHeader'
import { StaggerList } from '@/components/ui/Stagger'

/** An index page of cards (/case-studies, /sites); `renderCard` gets `priority` for the cards above the fold. */
export function CardGridPage<Item extends { _id: string }>({
  eyebrow,
  title,
  intro,
  columns,
  items,
  renderCard,
}: {
  eyebrow: string
  title: string
  intro: string
  columns: string
  items: Item[]
  renderCard: (item: Item, priority: boolean) => ReactNode
}) {
  return (
    <>
      <PageHeader eyebrow={eyebrow} title={title} intro={intro} />
      <div className="content-width pb-20 md:pb-28">
        <StaggerList className={`grid gap-6 ${columns}`}>
          {items.map((item, index) => (
            <li key={item._id}>{renderCard(item, index < ABOVE_THE_FOLD_CARDS)}</li>
          ))}
        </StaggerList>
        <ConsultationButton className="mt-12" />
      </div>
    </>
  )
}
