import type { MouseEvent } from 'react'
import { IntentLink } from '@/components/ui/IntentLink'
import type { NavItem } from '@/lib/navigation'

/** A list of site links, one item each, in order; `onFollow` runs on a click of one (the light Menu's). */
export function LinkList({
  items,
  id,
  className,
  linkClassName,
  onFollow,
}: {
  items: NavItem[]
  id?: string
  className: string
  linkClassName: string
  onFollow?: (event: MouseEvent<HTMLAnchorElement>, item: NavItem) => void
}) {
  return (
    <ul id={id} className={className}>
      {items.map((item) => (
        <li key={item.href}>
          <IntentLink
            href={item.href}
            className={linkClassName}
            onClick={onFollow && ((event) => onFollow(event, item))}
          >
            {item.label}
          </IntentLink>
        </li>
      ))}
    </ul>
  )
}
