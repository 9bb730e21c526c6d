/**
 * The /studio route (app/studio/[[...tool]]): which page a build gets, from the
 * environment it was built with (lib/studio.ts).
 */
import { render, screen } from '@testing-library/react'
import StudioPage, { generateStaticParams, metadata } from '@/app/studio/[[...tool]]/page'
import { StudioApp } from '@/app/studio/[[...tool]]/StudioApp'
import { StudioSetupNotice } from '@/components/studio/StudioSetupNotice'
import { STUDIO_BASE_PATH, studioProjectFromEnv } from '@/lib/studio'

// The route's loader must never pull Sanity into this test: if it did, these imports would fail.
jest.mock('@/app/studio/[[...tool]]/StudioScreen', () => {
  throw new Error('StudioScreen must only load in the browser, on demand')
})

describe('studioProjectFromEnv', () => {
  test('no project: null (the route explains what to set)', () => {
    expect(studioProjectFromEnv({})).toBeNull()
    expect(studioProjectFromEnv({ SANITY_STUDIO_PROJECT_ID: '  ' })).toBeNull()
  })

  test("the Studio's own variables win; the content layer's are the fallback; dataset defaults to production", () => {
    expect(studioProjectFromEnv({ SANITY_PROJECT_ID: 'abc12345' })).toEqual({
      projectId: 'abc12345',
      dataset: 'production',
    })
    expect(
      studioProjectFromEnv({
        SANITY_STUDIO_PROJECT_ID: 'studio1',
        SANITY_PROJECT_ID: 'site1',
        SANITY_DATASET: 'staging',
      }),
    ).toEqual({ projectId: 'studio1', dataset: 'staging' })
    expect(
      studioProjectFromEnv({ SANITY_PROJECT_ID: 'p1', SANITY_STUDIO_DATASET: 'drafts', SANITY_DATASET: 'x' }),
    ).toEqual({ projectId: 'p1', dataset: 'drafts' })
  })

  test('a value Sanity would reject fails the build, naming the variable', () => {
    expect(() => studioProjectFromEnv({ SANITY_STUDIO_PROJECT_ID: 'My Project' })).toThrow(
      'SANITY_STUDIO_PROJECT_ID="My Project" is not a Sanity project id',
    )
    expect(() => studioProjectFromEnv({ SANITY_PROJECT_ID: 'p1', SANITY_DATASET: 'Prod!' })).toThrow(
      'SANITY_DATASET="Prod!" is not a Sanity dataset name',
    )
  })
})

describe('the /studio page', () => {
  const saved = { ...process.env }
  afterEach(() => {
    process.env = { ...saved }
  })

  test('exports /studio only, kept out of search engines', () => {
    expect(generateStaticParams()).toEqual([{ tool: [] }])
    expect(metadata.robots).toEqual({ index: false, follow: false })
    expect(STUDIO_BASE_PATH).toBe('/studio')
  })

  test('without a project: the set-up notice', () => {
    delete process.env.SANITY_STUDIO_PROJECT_ID
    delete process.env.SANITY_PROJECT_ID
    expect(StudioPage().type).toBe(StudioSetupNotice)
  })

  test('with a project: the Studio, for that project', () => {
    process.env.SANITY_STUDIO_PROJECT_ID = 'abc12345'
    const page = StudioPage()
    expect(page.type).toBe(StudioApp)
    expect(page.props).toEqual({ projectId: 'abc12345', dataset: 'production' })
  })
})

describe('StudioSetupNotice', () => {
  test('says what to set and what to run', () => {
    render(<StudioSetupNotice />)
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Editing is not set up on this build')
    const steps = screen.getAllByRole('listitem')
    expect(steps).toHaveLength(3)
    expect(steps[0]).toHaveTextContent('SANITY_STUDIO_PROJECT_ID')
    expect(steps[1]).toHaveTextContent('npm run build')
    expect(steps[2]).toHaveTextContent('CORS origins')
    expect(screen.getByRole('link', { name: /Return to Home/ })).toHaveAttribute('href', '/')
  })
})
