/**
 * Stega where it breaks things is reported to the console (the preview's e2e tests read
 * it); React's own payload of the page, which holds every string the page shows, is not.
 */
import { reportSuspiciousStega } from '@/components/preview/PreviewVisualEditing'

jest.mock('next/navigation', () => ({ useRouter: () => ({ refresh: () => undefined }) }))
jest.mock('next-sanity/visual-editing/client-component', () => ({ VisualEditing: () => null }))

test("reports an attribute's stega, and not React's payload", () => {
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
