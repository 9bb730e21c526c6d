import Link from 'next/link'
import { homeMenuItems, routeItems, type NavItem } from '@/lib/navigation'
import { buttonStyles } from '@/components/ui/ButtonLink'

function MenuList({ items, className = '' }: { items: NavItem[]; className?: string }) {
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item.href}>
          <Link
            href={item.href}
            className="flex min-h-11 items-center rounded-ui px-4 text-base font-medium text-ink hover:bg-accent-soft"
          >
            {item.label}
          </Link>
        </li>
      ))}
    </ul>
  )
}

/**
 * A 'Menu' dropdown. A native disclosure: keyboard operable and working without JavaScript.
 * @param items the links it lists
 * @param className where it shows (e.g. only below the md breakpoint)
 */
function MenuDropdown({ items, className = '' }: { items: NavItem[]; className?: string }) {
  return (
    <details className={`group relative ${className}`}>
      <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 rounded-ui px-4 text-base font-semibold text-ink hover:bg-accent-soft [&::-webkit-details-marker]:hidden">
        Menu
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className="size-4 transition-transform group-open:rotate-180"
        >
          <path d="M5 7.5l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" />
        </svg>
      </summary>
      <MenuList
        items={items}
        className="absolute right-0 mt-2 w-64 rounded-ui border border-line bg-surface p-2 shadow-lift md:left-0 md:right-auto"
      />
    </details>
  )
}

/**
 * The fixed navigation bar (spec §2): brand link to /, a Menu dropdown, and on
 * desktop separate buttons for Case Studies, Sites and Free Consultation.
 * @param brandName from site settings
 */
export function SiteHeader({ brandName }: { brandName: string }) {
  const [caseStudies, sites, consultation] = routeItems as [NavItem, NavItem, NavItem]
  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-line/80 bg-paper/90 backdrop-blur">
      <nav aria-label="Main" className="content-width flex h-16 items-center justify-between gap-4">
        <Link href="/" className="display text-lg tracking-tight text-ink uppercase">
          {brandName}
        </Link>
        <MenuDropdown items={[...homeMenuItems, ...routeItems]} className="md:hidden" />
        <div className="hidden items-center gap-2 md:flex">
          <MenuDropdown items={homeMenuItems} />
          <Link
            href={caseStudies.href}
            className="flex min-h-11 items-center rounded-ui px-4 font-semibold text-ink hover:bg-accent-soft"
          >
            {caseStudies.label}
          </Link>
          <Link
            href={sites.href}
            className="flex min-h-11 items-center rounded-ui px-4 font-semibold text-ink hover:bg-accent-soft"
          >
            {sites.label}
          </Link>
          <Link href={consultation.href} className={`${buttonStyles.primary} ml-2 px-5 py-2`}>
            {consultation.label}
          </Link>
        </div>
      </nav>
    </header>
  )
}
