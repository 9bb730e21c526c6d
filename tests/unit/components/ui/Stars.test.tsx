import { render, screen } from '@testing-library/react'
import { Stars } from '@/components/ui/Stars'

// Stars 16 px wide and 2 px apart (20 and 22.5 viewBox units): each row's box, its width in
// px at 16 px high, and where each star's outline starts.
test.each([
  { count: 1, viewBox: '0 0 20 20', width: '16', starts: ['M10 1.5'] },
  { count: 3, viewBox: '0 0 65 20', width: '52', starts: ['M10 1.5', 'M32.5 1.5', 'M55 1.5'] },
  {
    count: 5,
    viewBox: '0 0 110 20',
    width: '88',
    starts: ['M10 1.5', 'M32.5 1.5', 'M55 1.5', 'M77.5 1.5', 'M100 1.5'],
  },
])(
  '$count stars: one image named by its count, one path with a star each',
  ({ count, viewBox, width, starts }) => {
    const { container } = render(<Stars count={count} />)
    const image = screen.getByRole('img', { name: `${count} out of 5 stars` })
    expect(container.querySelectorAll('svg')).toHaveLength(1)
    expect(image.querySelectorAll('path')).toHaveLength(1)
    expect(
      image
        .querySelector('path')!
        .getAttribute('d')!
        .match(/M[\d.]+ [\d.]+/g),
    ).toEqual(starts)
    expect(image.getAttribute('viewBox')).toBe(viewBox)
    expect(image.getAttribute('width')).toBe(width)
    expect(image.getAttribute('height')).toBe('16')
  },
)
