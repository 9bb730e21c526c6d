import Image from 'next/image'
import type { ContentImage as ContentImageData } from '@/lib/content/media'

/**
 * How many cards of a grid page start above the fold: the first row at 1280 px
 * (three columns); on a phone the first card. Their images get `priority`.
 */
export const ABOVE_THE_FOLD_CARDS = 3

/**
 * A content image with its intrinsic width and height set (no layout shift).
 * @param image `{src, width, height, alt}` from the content layer
 * @param sizes the slot's width, e.g. '(min-width: 768px) 33vw, 100vw'
 * @param priority true for an image above the fold: preloaded, loaded eagerly and at
 *   high fetch priority (it is often the page's largest contentful paint)
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
  return (
    <Image
      src={image.src}
      width={image.width}
      height={image.height}
      alt={image.alt}
      sizes={sizes}
      preload={priority}
      fetchPriority={priority ? 'high' : undefined}
      className={`h-auto w-full ${className}`}
    />
  )
}
