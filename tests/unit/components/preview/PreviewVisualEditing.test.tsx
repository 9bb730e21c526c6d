/**
 * Visual editing in the preview (components/preview/PreviewVisualEditing.tsx): stega where it
 * breaks things is reported, React's own payload is not; and the refresh that Presentation
 * calls on each saved change,
 * against a stand-in of Next's router whose refresh suspends a transition until the new
 * page arrives, as Next's does (the router's state becomes a promise inside a transition).
 */
import { act, render, screen } from '@testing-library/react'
import { startTransition, Suspense, use, useEffect, useState } from 'react'
import type { VisualEditingProps } from 'next-sanity/visual-editing/client-component'

type Refresh = NonNullable<VisualEditingProps['refresh']>
const captured: { refresh?: Refresh } = {}
jest.mock('next-sanity/visual-editing/client-component', () => ({
  VisualEditing: (props: VisualEditingProps) => {
    captured.refresh = props.refresh
    return null
  },
}))

/** The server's answers the stand-in router waits for, one per refresh, in order. */
const answers: ((page: string) => void)[] = []
/** How the stand-in router shows a page: set by the rendered page. */
const shown: { page?: (page: Promise<string>) => void } = {}
const router = {
  refresh: jest.fn(() => {
    const page = new Promise<string>((resolve) => answers.push(resolve))
    if (!shown.page) throw new Error('the page has not rendered')
    startTransition(() => shown.page!(page))
  }),
}
jest.mock('next/navigation', () => ({ useRouter: () => router }))

// Imported after the mocks it uses.
import { PreviewVisualEditing, reportSuspiciousStega } from '@/components/preview/PreviewVisualEditing'

function Shown({ page }: { page: Promise<string> }) {
  return <p>{use(page)}</p>
}

function Page() {
  const [page, setPage] = useState(() => Promise.resolve('v0'))
  useEffect(() => {
    shown.page = setPage
  }, [])
  return (
    <Suspense fallback={<p>loading</p>}>
      <Shown page={page} />
    </Suspense>
  )
}

/** Records when each refresh's promise settles. */
function track(log: string[], name: string, promise: ReturnType<Refresh>) {
  if (!promise) throw new Error(`refresh ${name} returned false: the change would not render`)
  promise.then(() => log.push(name))
}

describe('PreviewVisualEditing: a refresh per saved change', () => {
  it('renders one at a time, the changes meanwhile in one more, each resolved once its render committed', async () => {
    await act(async () => {
      render(
        <>
          <Page />
          <PreviewVisualEditing />
        </>,
      )
    })
    expect(screen.getByText('v0')).toBeInTheDocument()
    const refresh = captured.refresh!
    const log: string[] = []
    const payload = { source: 'mutation', livePreviewEnabled: false } as Parameters<Refresh>[0]

    await act(async () => {
      for (let change = 1; change <= 5; change++) track(log, `change ${change}`, refresh(payload))
    })
    expect(router.refresh).toHaveBeenCalledTimes(1)
    expect(log).toEqual([])

    await act(async () => answers[0]!('v1'))
    expect(screen.getByText('v1')).toBeInTheDocument()
    expect(log).toEqual(['change 1'])
    expect(router.refresh).toHaveBeenCalledTimes(2)

    await act(async () => answers[1]!('v2'))
    expect(screen.getByText('v2')).toBeInTheDocument()
    expect(log).toEqual(['change 1', 'change 2', 'change 3', 'change 4', 'change 5'])
    expect(router.refresh).toHaveBeenCalledTimes(2)
  })
})

test("stega where it breaks things is reported to the console; React's payload of the page is not", () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined)
  const payload = document.createElement('script')
  payload.textContent = 'self.__next_f.push([1,"Hello"])'
  const image = document.createElement('img')
  reportSuspiciousStega([
    { kind: 'script', element: payload, value: 'x', cleaned: 'Hello' },
    { kind: 'attribute', element: image, attribute: 'title', value: 'x', cleaned: 'A title' },
    { kind: 'head', value: 'x', cleaned: 'Page title' },
  ])
  expect(warn.mock.calls.map(([message]) => message)).toEqual([
    'preview: stega in attribute [title] of <img>: "A title"',
    'preview: stega in head: "Page title"',
  ])
  warn.mockRestore()
})
