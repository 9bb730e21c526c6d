import Link from 'next/link'
import type { NavItem } from '@/lib/navigation'

/**
 * A list of site links, one item each, in order: the navigation's no-JavaScript
 * menu (SiteHeader) and the footer's 'Explore' links (SiteFooter).
 * @param items the links
 * @param className the list's classes
 * @param linkClassName every link's classes
 */
export function LinkList({
  items,
  className,
  linkClassName,
}: {
  items: NavItem[]
  className: string
  linkClassName: string
}) {
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item.href}>
          <Link href={item.href} className={linkClassName}>
            {item.label}
          </Link>
        </li>
      ))}
    </ul>
  )
}
