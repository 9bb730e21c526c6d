// First: ContentImage imports next-sanity (stegaClean), which needs Node's web globals in jsdom.
import '../../helpers/webGlobals'
import { render, screen } from '@testing-library/react'
import { ContentImage, objectPosition, svgCropAlignment } from '@/components/ui/ContentImage'

const image = { src: '/media/a-1200x800.svg', width: 1200, height: 800, alt: 'A diagram' }

test('an above-the-fold image loads eagerly at high fetch priority, with its size set', () => {
  render(<ContentImage image={image} sizes="100vw" priority />)
  const img = screen.getByRole('img', { name: 'A diagram' })
  expect(img).toHaveAttribute('fetchpriority', 'high')
  expect(img).not.toHaveAttribute('loading', 'lazy')
  expect(img).toHaveAttribute('width', '1200')
  expect(img).toHaveAttribute('height', '800')
})

test('other images load lazily at the default priority', () => {
  render(<ContentImage image={image} sizes="100vw" />)
  const img = screen.getByRole('img', { name: 'A diagram' })
  expect(img).toHaveAttribute('loading', 'lazy')
  expect(img).not.toHaveAttribute('fetchpriority')
})

test('an above-the-fold image is preloaded, unless it is inlined as a data: URL (its bytes would be repeated)', () => {
  const preloads = () => document.head.querySelectorAll('link[rel="preload"][as="image"]')
  render(<ContentImage image={image} sizes="100vw" priority />)
  expect(preloads()).toHaveLength(1)
  document.head.innerHTML = ''
  const inline = { ...image, src: "data:image/svg+xml,%3csvg xmlns='http://www.w3.org/2000/svg'/%3e" }
  render(<ContentImage image={inline} sizes="100vw" priority />)
  expect(screen.getAllByRole('img', { name: 'A diagram' }).at(-1)).toHaveAttribute('src', inline.src)
  expect(preloads()).toHaveLength(0)
})

test('an inlined SVG is drawn in the page: named by its alt, sized like the image, cropped like object-cover, never preloaded', () => {
  document.head.innerHTML = ''
  const inlineSvg = {
    viewBox: '0 0 1200 800',
    markup: '<rect width="1200" height="800" fill="#0b1220"></rect>',
  }
  const { container } = render(
    <ContentImage image={{ ...image, inlineSvg }} sizes="100vw" priority className="aspect-[3/2]" />,
  )
  const svg = screen.getByRole('img', { name: 'A diagram' })
  expect(svg.tagName).toBe('svg')
  expect(svg).toHaveAttribute('viewBox', '0 0 1200 800')
  expect(svg).toHaveAttribute('width', '1200')
  expect(svg).toHaveAttribute('height', '800')
  expect(svg).toHaveAttribute('preserveAspectRatio', 'xMidYMid slice')
  expect(svg).toHaveClass('w-full', 'h-auto', 'aspect-[3/2]')
  expect(svg).toHaveAttribute('data-inline-image') // app/globals.css: inherits nothing from the page
  expect(svg.innerHTML).toBe(inlineSvg.markup)
  expect(container.querySelector('img')).toBeNull()
  expect(document.head.querySelectorAll('link[rel="preload"][as="image"]')).toHaveLength(0)
})

const photo = {
  src: '/media/abc-4000x3000-1600w.webp',
  srcSet: '/media/abc-4000x3000-480w.webp 480w, /media/abc-4000x3000-1600w.webp 1600w',
  width: 4000,
  height: 3000,
  alt: 'The team at work',
}

test('a photo with copies lets the browser pick one by the slot size, and its preload offers the same choice', () => {
  document.head.innerHTML = ''
  const sizes = '(min-width: 1024px) 540px, 100vw'
  render(<ContentImage image={photo} sizes={sizes} priority />)
  const img = screen.getByRole('img', { name: 'The team at work' })
  expect(img).toHaveAttribute('srcset', photo.srcSet)
  expect(img).toHaveAttribute('sizes', sizes)
  expect(img).toHaveAttribute('src', photo.src)
  expect(img).toHaveAttribute('width', '4000')
  expect(img).toHaveAttribute('fetchpriority', 'high')
  expect(img).not.toHaveAttribute('loading', 'lazy')
  const preload = document.head.querySelector('link[rel="preload"][as="image"]')
  expect(preload).toHaveAttribute('imagesrcset', photo.srcSet)
  expect(preload).toHaveAttribute('imagesizes', sizes)
})

test('a photo below the fold loads lazily and is not preloaded', () => {
  document.head.innerHTML = ''
  render(<ContentImage image={photo} sizes="100vw" />)
  expect(screen.getByRole('img', { name: 'The team at work' })).toHaveAttribute('loading', 'lazy')
  expect(document.head.querySelectorAll('link[rel="preload"][as="image"]')).toHaveLength(0)
})

describe("the editor's hotspot stays in view where a layout crops the image", () => {
  const focus = { x: 0.2, y: 0.875 }

  test('a photo and a drawing are positioned at its percentages (object-position)', () => {
    const photo = { ...image, src: '/media/p-800w.webp', srcSet: '/media/p-800w.webp 800w', focus }
    render(<ContentImage image={photo} sizes="100vw" className="object-cover" />)
    render(
      <ContentImage image={{ ...image, alt: 'A drawing', focus }} sizes="100vw" className="object-cover" />,
    )
    expect(screen.getByRole('img', { name: 'A diagram' })).toHaveStyle({ objectPosition: '20% 87.5%' })
    expect(screen.getByRole('img', { name: 'A drawing' })).toHaveStyle({ objectPosition: '20% 87.5%' })
  })

  test('an inlined SVG aligns to the nearest third (preserveAspectRatio has no other points)', () => {
    const inlineSvg = { viewBox: '0 0 1200 800', markup: '<rect width="1200" height="800"></rect>' }
    render(<ContentImage image={{ ...image, inlineSvg, focus }} sizes="100vw" />)
    expect(screen.getByRole('img', { name: 'A diagram' })).toHaveAttribute(
      'preserveAspectRatio',
      'xMinYMax slice',
    )
  })

  test('without a focus the image keeps the centred crop (no object-position of its own)', () => {
    render(<ContentImage image={image} sizes="100vw" />)
    expect(screen.getByRole('img', { name: 'A diagram' }).style.objectPosition).toBe('')
  })
})

test('objectPosition and svgCropAlignment map fractions to CSS and SVG values', () => {
  expect(objectPosition(undefined)).toBeUndefined()
  expect(objectPosition({ x: 0, y: 1 })).toBe('0% 100%')
  expect(objectPosition({ x: 1 / 3, y: 0.5 })).toBe('33.33% 50%')
  expect(svgCropAlignment(undefined)).toBe('xMidYMid slice')
  expect(svgCropAlignment({ x: 0.9, y: 0.1 })).toBe('xMaxYMin slice')
  expect(svgCropAlignment({ x: 0.5, y: 0.6 })).toBe('xMidYMid slice')
})
