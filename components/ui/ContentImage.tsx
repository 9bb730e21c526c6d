import Image from 'next/image'
import type { ContentImage as ContentImageData } from '@/lib/content/media'

/**
 * A content image with its intrinsic width and height set (no layout shift).
 * @param image `{src, width, height, alt}` from the content layer
 * @param sizes the slot's width, e.g. '(min-width: 768px) 33vw, 100vw'
 * @param priority true for the above-the-fold image of a page (eager, high priority)
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
      priority={priority}
      className={`h-auto w-full ${className}`}
    />
  )
}
