import { CaseStudyCard, type CaseStudyCardData } from '@/components/case-studies/CaseStudyCard'
import { ButtonLink } from '@/components/ui/ButtonLink'
import { Section } from '@/components/ui/Section'
import { StaggerList } from '@/components/ui/Stagger'

/**
 * Home section 5 (spec §2): three case studies, each linking to its page, and
 * 'See All Case Studies'.
 */
export function CaseStudiesTeaser({ intro, studies }: { intro: string; studies: CaseStudyCardData[] }) {
  return (
    <Section eyebrow="Results" title="Case Studies" intro={intro} tone="surface">
      <StaggerList className="grid gap-6 md:grid-cols-3">
        {studies.slice(0, 3).map((study) => (
          <li key={study._id}>
            <CaseStudyCard study={study} />
          </li>
        ))}
      </StaggerList>
      <ButtonLink href="/case-studies" variant="secondary" className="mt-10">
        See All Case Studies
      </ButtonLink>
    </Section>
  )
}
