import Image from 'next/image'
import { stegaClean } from 'next-sanity'
import { preload } from 'react-dom'
import type { ContentImage as ContentImageData, ImageFocus } from '@/lib/content/image'

/**
 * How many cards of a grid page get `priority` for their image when it is too big to
 * inline (INLINED_CARDS; an inlined one needs no request): the first only. On a
 * phone it is the one card above the fold; on a desktop it paints first and is the
 * largest contentful paint. (Three, the desktop's first row, made the three images
 * compete on a phone: /sites LCP 1.61 s instead of 1.46 s with applied throttling.)
 */
export const ABOVE_THE_FOLD_CARDS = 1

/**
 * How many cards of a grid page have their image written into the HTML when it is small
 * (lib/content `inlineFirstImages`): the desktop's first row. Inlined, they need no
 * request, so unlike preloads they do not compete on a phone (where only the first is
 * in view: the other two cost /sites about 1.6 KiB brotli of HTML); left lazy, the
 * second card's image was the desktop's largest paint, a round trip after the first
 * paint (Lighthouse desktop, simulated: /sites LCP 370 -> 280 ms, median of 3).
 */
export const INLINED_CARDS = 3

/**
 * CSS `object-position` for an image's focus (the editor's hotspot): the point at
 * x% of the image sits at x% of the box, so a crop (`object-cover`) keeps it in view.
 * @param focus fractions of the image's width and height; undefined for the centre
 * @returns e.g. '30% 62.5%', or undefined (the browser's default, the centre)
 */
export function objectPosition(focus: ImageFocus | undefined): string | undefined {
  if (!focus) return undefined
  const percent = (fraction: number) => `${Math.round(fraction * 10000) / 100}%`
  return `${percent(focus.x)} ${percent(focus.y)}`
}

/**
 * SVG `preserveAspectRatio` for an inline drawing cropped like `object-cover`: SVG
 * aligns to a third of the box (min, mid or max on each axis), not to any point, so
 * the focus picks the nearest third.
 * @param focus fractions of the image's width and height; undefined for the centre
 * @returns e.g. 'xMinYMid slice'
 */
export function svgCropAlignment(focus: ImageFocus | undefined): string {
  const third = (fraction: number) => (fraction < 1 / 3 ? 'Min' : fraction > 2 / 3 ? 'Max' : 'Mid')
  return `x${third(focus?.x ?? 0.5)}Y${third(focus?.y ?? 0.5)} slice`
}

/**
 * A content image with its intrinsic width and height set (no layout shift). One with
 * `inlineSvg` (lib/content `inlineIfSmall`: sanitised at build time) is drawn by an
 * `<svg>` in the page, named by its alt text like an `<img>`, and cropped to its box
 * the way `object-cover` crops one (`preserveAspectRatio` slice); `data-inline-image`
 * stops it inheriting the page's type and colour (app/globals.css). One with `srcSet`
 * (a photo: lib/content `rasterWidths`) lets the browser pick the copy its slot needs
 * by `sizes`, and the preload carries the same choice. Where a layout crops the image,
 * the editor's hotspot (`focus`) stays in view (`objectPosition`, `svgCropAlignment`).
 * @param image `{src, width, height, alt, srcSet?, inlineSvg?, focus?}` from the content layer
 * @param sizes the slot's width, e.g. '(min-width: 768px) 33vw, 100vw'
 * @param priority true for an image above the fold: preloaded, loaded eagerly and at
 *   high fetch priority (it is often the page's largest contentful paint). An image
 *   already inlined as a `data:` URL (lib/content `inlineIfSmall`) is not preloaded: a
 *   preload link would repeat its bytes in the head.
 *
 * In an editor's preview (stega): the addresses and the viewBox are cleaned, since an
 * attribute or a preload is never an overlay and an encoded URL names another file. The
 * alt text keeps its stega: an `<img>`'s alt and an `<svg>`'s aria-label are the attributes
 * Sanity's overlays read, which makes the image itself click-to-edit. The inline markup
 * comes from the image file (lib/content), never from a content string.
 */
export function ContentImage({
  image,
  sizes,
  priority = false,
  className = '',
}: {
  image: ContentImageData
  sizes: string
  priority?: boolean
  className?: string
}) {
  const src = stegaClean(image.src)
  const srcSet = stegaClean(image.srcSet)
  const focusPosition = objectPosition(image.focus)
  const position = focusPosition ? { objectPosition: focusPosition } : undefined
  if (image.inlineSvg)
    return (
      <svg
        viewBox={stegaClean(image.inlineSvg.viewBox)}
        width={image.width}
        height={image.height}
        preserveAspectRatio={svgCropAlignment(image.focus)}
        role="img"
        aria-label={image.alt}
        data-inline-image=""
        className={`h-auto w-full ${className}`}
        dangerouslySetInnerHTML={{ __html: image.inlineSvg.markup }}
      />
    )
  if (srcSet) {
    // What next/image does for `preload`, with the build's own copies (a static export
    // has no image optimizer, so next/image would send the widest copy to every screen).
    if (priority) preload(src, { as: 'image', imageSrcSet: srcSet, imageSizes: sizes, fetchPriority: 'high' })
    return (
      // eslint-disable-next-line @next/next/no-img-element -- next/image takes no srcset of our own (images.unoptimized)
      <img
        src={src}
        srcSet={srcSet}
        sizes={sizes}
        width={image.width}
        height={image.height}
        alt={image.alt}
        loading={priority ? undefined : 'lazy'}
        decoding="async"
        fetchPriority={priority ? 'high' : undefined}
        className={`h-auto w-full ${className}`}
        style={position}
      />
    )
  }
  return (
    <Image
      src={src}
      width={image.width}
      height={image.height}
      alt={image.alt}
      sizes={sizes}
      preload={priority && !src.startsWith('data:')}
      fetchPriority={priority ? 'high' : undefined}
      className={`h-auto w-full ${className}`}
      style={position}
    />
  )
}
