import { TextLink } from '@/components/ui/TextLink'

/** Spec §2, §8: what an unknown case study id shows. */
export function CaseStudyNotFound() {
  return (
    <div className="content-width py-24 text-center md:py-32">
      <h1 className="display text-2xl md:text-3xl">Case study not found.</h1>
      <TextLink href="/case-studies" back className="mt-8">
        Back to case studies
      </TextLink>
    </div>
  )
}
