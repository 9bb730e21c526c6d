import type { ReactNode } from 'react'
import { ContentImage } from '@/components/ui/ContentImage'
import type { ContentImage as ContentImageData } from '@/lib/content/image'

/**
 * A content card's frame: the image cropped to 3:2 over the body. `linked`: the whole card is
 * one link; `editable` (preview): the link covers the body only, so the image's overlay is reachable.
 */
export function CardShell({
  image,
  priority,
  linked = false,
  imageDivider = false,
  editable = false,
  children,
}: {
  image: ContentImageData
  priority: boolean
  linked?: boolean
  imageDivider?: boolean
  editable?: boolean
  children: ReactNode
}) {
  const frame = 'flex h-full flex-col overflow-hidden rounded-ui border border-line bg-surface shadow-soft'
  return (
    <article
      className={linked ? `group relative ${frame} transition-shadow duration-200 hover:shadow-lift` : frame}
    >
      <ContentImage
        image={image}
        sizes="(min-width: 1024px) 352px, (min-width: 640px) 50vw, 100vw"
        className={`aspect-[3/2] ${imageDivider ? 'border-b border-line ' : ''}object-cover`}
        priority={priority}
      />
      <div className="flex flex-1 flex-col p-6" {...(editable && { style: { position: 'relative' } })}>
        {children}
      </div>
    </article>
  )
}
