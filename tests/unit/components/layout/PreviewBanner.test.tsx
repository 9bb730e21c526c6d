import { render, screen, within } from '@testing-library/react'
import { PreviewBanner } from '@/components/layout/PreviewBanner'
import type { PreviewProblem } from '@/lib/content'

const renderedAt = '2026-11-26T10:00:00.000Z'
const settingsProblem = {
  documentId: 'drafts.siteSettings',
  publishedId: 'siteSettings',
  type: 'siteSettings',
  title: 'Draft Brand',
  shown: 'published',
} as const
const problems: PreviewProblem[] = [
  {
    ...settingsProblem,
    field: 'bookingScriptUrl',
    path: 'bookingScriptUrl',
    message: 'Does not match allowed protocols/schemes',
  },
  {
    ...settingsProblem,
    field: 'contactWebhookUrl',
    path: 'contactWebhookUrl',
    message: 'Use an address starting with https:// or a path on this site',
  },
  {
    documentId: 'versions.rSpring.caseStudy-new',
    publishedId: 'caseStudy-new',
    type: 'caseStudy',
    title: '<script>alert(1)</script>',
    field: 'issue[_key=="b1"].markDefs[_key=="l1"].href',
    path: 'issue[_key=="b1"].markDefs[_key=="l1"].href',
    message: 'There is no page at /case-studies/gone on this site',
    shown: 'nothing',
    release: 'rSpring',
  },
  {
    documentId: 'drafts.review-a',
    publishedId: 'review-a',
    type: 'review',
    title: 'Ann',
    field: '(document)',
    path: null,
    message: 'could not be checked: boom',
    shown: 'published',
  },
]

test('each broken rule is listed under its draft, linked to its field in the Studio', () => {
  render(<PreviewBanner renderedAt={renderedAt} drafts={[]} problems={problems} studioUrl="/studio" />)
  const section = screen.getByRole('region', { name: 'Not shown: drafts that break a rule' })
  const [settings, study, review] = within(section)
    .getAllByRole('listitem')
    .filter((item) => item.parentElement?.parentElement === section)
  expect(settings).toHaveTextContent(
    'Draft Brand (drafts.siteSettings): not shown, it breaks a rule; the published version is shown instead.',
  )
  expect(within(settings!).getByRole('link', { name: 'bookingScriptUrl' })).toHaveAttribute(
    'href',
    '/studio/intent/edit/id=siteSettings;type=siteSettings;path=bookingScriptUrl',
  )
  expect(within(settings!).getByRole('link', { name: 'contactWebhookUrl' }).parentElement).toHaveTextContent(
    'contactWebhookUrl: Use an address starting with https:// or a path on this site',
  )
  // HTML-looking text is text; a release version opens in its release, at the field.
  expect(study).toHaveTextContent('<script>alert(1)</script> (versions.rSpring.caseStudy-new)')
  expect(study).toHaveTextContent('it has no published version, so it is not on the page')
  expect(document.querySelector('script')).toBeNull()
  expect(within(study!).getByRole('link')).toHaveAttribute(
    'href',
    '/studio/intent/edit/id=caseStudy-new;type=caseStudy;path=issue%5B_key%3D%3D%22b1%22%5D.markDefs%5B_key%3D%3D%22l1%22%5D.href?perspective=rSpring',
  )
  // A problem with the document as a whole opens the document.
  expect(within(review!).getByRole('link', { name: '(document)' })).toHaveAttribute(
    'href',
    '/studio/intent/edit/id=review-a;type=review',
  )
  expect(screen.getByText('No drafts shown')).toBeInTheDocument()
})

test('without problems the banner is as before: the drafts shown, linked to their documents', () => {
  render(
    <PreviewBanner
      renderedAt={renderedAt}
      drafts={[{ id: 'review-a', type: 'review', title: 'Ann' }]}
      studioUrl="https://agency.sanity.studio"
    />,
  )
  expect(screen.getByRole('link', { name: 'Ann' })).toHaveAttribute(
    'href',
    'https://agency.sanity.studio/intent/edit/id=review-a;type=review',
  )
  expect(screen.queryByRole('region')).toBeNull()
})
