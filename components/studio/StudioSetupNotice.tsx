import type { ReactNode } from 'react'
import { PageHeader } from '@/components/ui/PageHeader'
import { TextLink } from '@/components/ui/TextLink'

/** A command or variable name; only utilities the site already uses, so the shared stylesheet does not grow. */
function Code({ children }: { children: ReactNode }) {
  return <code className="font-medium text-ink">{children}</code>
}

const steps: { title: string; body: ReactNode }[] = [
  {
    title: 'Name the Sanity project',
    body: (
      <>
        Set <Code>SANITY_STUDIO_PROJECT_ID</Code> (or <Code>SANITY_PROJECT_ID</Code>) to the project id shown
        at sanity.io/manage. If the dataset is not called <Code>production</Code>, set{' '}
        <Code>SANITY_STUDIO_DATASET</Code> (or <Code>SANITY_DATASET</Code>) too.
      </>
    ),
  },
  {
    title: 'Build the site again',
    body: (
      <>
        Run <Code>npm run build</Code> with those variables set. The Studio is built into this page; a build
        without them gives this page again.
      </>
    ),
  },
  {
    title: 'Let the Studio sign in from this address',
    body: (
      <>
        At sanity.io/manage, under API → CORS origins, add this site&apos;s address with &ldquo;Allow
        credentials&rdquo; ticked. Staff then sign in here with their Sanity accounts.
      </>
    ),
  },
]

/** What /studio shows in a build without a Sanity project: what to set (lib/studio.ts reads it). */
export function StudioSetupNotice() {
  return (
    <main id="main">
      <PageHeader
        eyebrow="Sanity Studio"
        title="Editing is not set up on this build"
        intro="This copy of the site was built without a Sanity project, so there is no Studio to edit content here. Its pages come from the local dataset in the repository."
      />
      <div className="content-width pb-20 md:pb-28">
        <h2 className="text-xl font-bold">To edit content at this address</h2>
        <ol className="mt-6 max-w-3xl divide-y divide-line rounded-ui border border-line bg-surface shadow-soft">
          {steps.map((step, index) => (
            <li key={step.title} className="flex gap-4 p-6">
              <span
                aria-hidden="true"
                className="flex size-10 shrink-0 items-center justify-center rounded-full bg-accent font-bold text-surface"
              >
                {index + 1}
              </span>
              <div>
                <h3 className="font-semibold">{step.title}</h3>
                <p className="mt-1 text-muted">{step.body}</p>
              </div>
            </li>
          ))}
        </ol>
        <p className="mt-8 max-w-prose text-muted">
          On a developer&apos;s computer, with the same variables set, <Code>npm run studio</Code> runs this
          Studio at http://localhost:3333.
        </p>
        <TextLink href="/" back className="mt-6">
          Return to Home
        </TextLink>
      </div>
    </main>
  )
}
