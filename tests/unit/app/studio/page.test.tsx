/**
 * The /studio route (app/(studio)/studio/[[...tool]]): what a build shows there, from the
 * environment it was built with (lib/studio.ts): without a Sanity project, a page
 * that says what to set; with one, a loading message until the Studio's code has
 * arrived, then the Studio for that project and dataset.
 */
import { render, screen } from '@testing-library/react'
import StudioPage from '@/app/(studio)/studio/[[...tool]]/page'
import { StudioSetupNotice } from '@/components/studio/StudioSetupNotice'
import { studioProjectFromEnv } from '@/lib/studio'

// The real StudioScreen is Sanity Studio itself (megabytes, not for jsdom). This
// stand-in shows what it was given and counts how often its module is loaded (on
// globalThis: the factory may run while this file's own imports load): the route
// must fetch it only when it renders the Studio, never on import.
type Counted = { studioScreenLoads?: number }
const studioScreenLoads = () => (globalThis as Counted).studioScreenLoads ?? 0
jest.mock('@/app/(studio)/studio/[[...tool]]/StudioScreen', () => {
  const counted = globalThis as Counted
  counted.studioScreenLoads = (counted.studioScreenLoads ?? 0) + 1
  return {
    __esModule: true,
    default: ({ projectId, dataset }: { projectId: string; dataset: string }) => (
      <main aria-label="Sanity Studio">
        Editing project {projectId}, dataset {dataset}
      </main>
    ),
  }
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
  beforeEach(() => {
    for (const name of [
      'SANITY_STUDIO_PROJECT_ID',
      'SANITY_PROJECT_ID',
      'SANITY_STUDIO_DATASET',
      'SANITY_DATASET',
    ]) {
      delete process.env[name]
    }
  })
  afterEach(() => {
    process.env = { ...saved }
  })

  test('without a project: the set-up notice, not the Studio', () => {
    render(<StudioPage />)
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Editing is not set up on this build')
    expect(screen.getAllByRole('listitem')[0]).toHaveTextContent('SANITY_STUDIO_PROJECT_ID')
    expect(screen.queryByText(/Loading Sanity Studio/)).toBeNull()
  })

  test('with a project: a loading message, then the Studio for that project and dataset', async () => {
    process.env.SANITY_PROJECT_ID = 'abc12345'
    process.env.SANITY_STUDIO_DATASET = 'staging'
    expect(studioScreenLoads()).toBe(0) // importing the route did not fetch the Studio
    render(<StudioPage />)
    expect(screen.getByText('Loading Sanity Studio…')).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Editing is not set up on this build' })).toBeNull()
    expect(await screen.findByRole('main', { name: 'Sanity Studio' })).toHaveTextContent(
      'Editing project abc12345, dataset staging',
    )
    expect(screen.queryByText('Loading Sanity Studio…')).toBeNull()
    expect(studioScreenLoads()).toBe(1)
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
