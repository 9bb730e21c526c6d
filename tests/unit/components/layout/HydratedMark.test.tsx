import { render } from '@testing-library/react'
import { renderToString } from 'react-dom/server'
import { HYDRATED_ATTRIBUTE, HydratedMark } from '@/components/layout/HydratedMark'

afterEach(() => document.documentElement.removeAttribute(HYDRATED_ATTRIBUTE))

test('marks <html> once React has rendered on the client, and renders nothing', () => {
  expect(renderToString(<HydratedMark />)).toBe('')
  expect(document.documentElement.hasAttribute(HYDRATED_ATTRIBUTE)).toBe(false)
  const { container } = render(<HydratedMark />)
  expect(container).toBeEmptyDOMElement()
  expect(document.documentElement.hasAttribute(HYDRATED_ATTRIBUTE)).toBe(true)
})
