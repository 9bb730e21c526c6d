import type { ReactNode } from 'react'
import { ContentImage } from '@/components/ui/ContentImage'
import type { ContentImage as ContentImageData } from '@/lib/content/image'

/**
 * The frame of a content card (case studies, portfolio sites): a bordered surface
 * with a soft shadow, the image across the top cropped to 3:2 (the card's width in a
 * three-column grid), and the body below it.
 * @param image the card's image
 * @param priority true for a card above the fold (its image loads first, see ContentImage)
 * @param linked true when the whole card is one link: it lifts on hover, and (as a
 *   `group`) lets the focus indicator of the link inside frame the whole card
 * @param imageDivider a line under the image (for screenshots whose edge meets the card)
 * @param editable in an editor's preview: a linked card's link covers its body only, so the
 *   pointer reaches the image's click-to-edit overlay (an inline style: visitors' stylesheet
 *   and pages stay as they are)
 * @param children the body: heading, text, links
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
      {/* A positioned body is what the stretched link's box fills, instead of the whole card. */}
      <div className="flex flex-1 flex-col p-6" {...(editable && { style: { position: 'relative' } })}>
        {children}
      </div>
    </article>
  )
}
