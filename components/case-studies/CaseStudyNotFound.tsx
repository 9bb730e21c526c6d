import Link from 'next/link'

/** Spec §2, §8: what an unknown case study id shows. */
export function CaseStudyNotFound() {
  return (
    <div className="content-width py-24 text-center md:py-32">
      <h1 className="display text-2xl md:text-3xl">Case study not found.</h1>
      <Link
        href="/case-studies"
        className="mt-8 inline-flex min-h-11 items-center gap-2 font-semibold text-accent hover:underline"
      >
        <span aria-hidden="true">←</span> Back to case studies
      </Link>
    </div>
  )
}
