import { render, screen } from '@testing-library/react'
import { Stars } from '@/components/ui/Stars'

test.each([1, 3, 5])('%i stars: one image named by its count, one path with a star each', (count) => {
  const { container } = render(<Stars count={count} />)
  const image = screen.getByRole('img', { name: `${count} out of 5 stars` })
  expect(container.querySelectorAll('svg')).toHaveLength(1)
  const path = image.querySelector('path')!.getAttribute('d')!
  // Each star starts with an absolute move 22.5 units (18 px) after the previous one.
  expect(path.match(/M[\d.]+ 1\.5/g)).toEqual(
    Array.from({ length: count }, (_, i) => `M${10 + 22.5 * i} 1.5`),
  )
  // The viewBox ends at the last star's right edge, so the row's width follows its 1rem height.
  const [, , width = NaN, height = NaN] = image.getAttribute('viewBox')!.split(' ').map(Number)
  expect(width).toBe(20 + 22.5 * (count - 1))
  expect(height).toBe(20)
  expect(Number(image.getAttribute('width')) / Number(image.getAttribute('height'))).toBe(width / height)
})
