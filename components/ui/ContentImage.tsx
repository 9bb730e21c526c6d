import { stegaClean } from 'next-sanity'
import { preload } from 'react-dom'
import type { ContentImage as ContentImageData, ImageFocus } from '@/lib/content/image'

/** Cards of a grid page whose too-large image is preloaded (docs/speed.md). */
export const ABOVE_THE_FOLD_CARDS = 1

/** Cards of a grid page whose small image is inlined: the desktop's first row (docs/speed.md). */
export const INLINED_CARDS = 3

/** CSS `object-position` keeping the editor's hotspot in view, e.g. '30% 62.5%'; undefined for the centre. */
export function objectPosition(focus: ImageFocus | undefined): string | undefined {
  if (!focus) return undefined
  const percent = (fraction: number) => `${Math.round(fraction * 10000) / 100}%`
  return `${percent(focus.x)} ${percent(focus.y)}`
}

/** SVG `preserveAspectRatio` cropping like `object-cover` at the third nearest the focus, e.g. 'xMinYMid slice'. */
export function svgCropAlignment(focus: ImageFocus | undefined): string {
  const third = (fraction: number) => (fraction < 1 / 3 ? 'Min' : fraction > 2 / 3 ? 'Max' : 'Mid')
  return `x${third(focus?.x ?? 0.5)}Y${third(focus?.y ?? 0.5)} slice`
}

/**
 * A content image at its intrinsic size: an inline `<svg>` (sanitised at build time), or an
 * `<img>` with the build's `srcSet` when it made copies. `priority` (above the fold) preloads it
 * at high priority, unless it is a `data:` URL already. Stega stays only in the alt text.
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
  // A static export has no image optimizer: next/image would add its code and send one copy to every screen.
  if (priority && !src.startsWith('data:'))
    preload(src, {
      as: 'image',
      imageSrcSet: srcSet,
      imageSizes: srcSet ? sizes : undefined,
      fetchPriority: 'high',
    })
  return (
    // eslint-disable-next-line @next/next/no-img-element -- images.unoptimized: the build made the copies
    <img
      src={src}
      srcSet={srcSet}
      sizes={srcSet ? sizes : undefined}
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
