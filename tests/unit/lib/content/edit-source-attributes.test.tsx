/**
 * Computed texts link to their field by `data-sanity` in an editor's preview only: a card
 * given no source (every visitor's page) carries no such attribute.
 */
// First: the cards import next-sanity (stegaClean), which needs Node's web globals in jsdom.
import '../../helpers/webGlobals'
import { render } from '@testing-library/react'
import { CaseStudyCard } from '@/components/case-studies/CaseStudyCard'
import { PortfolioCard } from '@/components/portfolio/PortfolioCard'

const image = { src: '/media/a-640x480.svg', width: 640, height: 480, alt: 'A picture' }
const study = { _id: 'cs', title: 'Saved forty hours', slug: 'saved', issueText: 'An issue.', image }
const site = {
  _id: 'site',
  title: 'Barbers',
  description: 'A site.',
  url: 'https://kingsway.example/',
  image,
}

test("the card's issue preview and the portfolio site's host link to their fields when given a source", () => {
  const source = 'id=cs;type=caseStudy;path=issue;base=%2Fstudio'
  const card = render(<CaseStudyCard study={{ ...study, issueSource: source }} />)
  expect(card.getByText('An issue.')).toHaveAttribute('data-sanity', source)
  // Above the card's stretched link, so the pointer reaches its overlay.
  expect(card.getByText('An issue.')).toHaveStyle({ position: 'relative' })
  const host = 'id=site;type=portfolioSite;path=url;base=%2Fstudio'
  const portfolio = render(<PortfolioCard site={{ ...site, urlSource: host }} />)
  expect(portfolio.getByText('kingsway.example')).toHaveAttribute('data-sanity', host)
})

test('without a source (a visitor’s page), no data-sanity attribute at all', () => {
  const { container } = render(
    <>
      <CaseStudyCard study={study} />
      <PortfolioCard site={site} />
    </>,
  )
  expect(container.querySelector('[data-sanity]')).toBeNull()
  expect(container.querySelector('[style*="position"]')).toBeNull()
})
