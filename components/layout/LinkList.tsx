import Link from 'next/link'
import type { NavItem } from '@/lib/navigation'

/** A list of site links, one item each, in order. */
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
