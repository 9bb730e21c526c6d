import { IntentLink } from '@/components/ui/IntentLink'
import { homeMenuItems, type NavItem } from '@/lib/navigation'
import { routeItems } from '@/lib/routes'
import { buttonStyles } from '@/components/ui/ButtonLink'
import { LinkList } from './LinkList'
import { Chevron, menuButtonClass, menuItemClass, menuListClass } from './menuButton'
import { NavMenu } from './NavMenu'

/** The 'Menu' before hydration and without JavaScript: a native disclosure NavMenu replaces once hydrated. */
function NoScriptMenu({
  items,
  align = 'right',
  className = '',
}: {
  items: NavItem[]
  align?: 'left' | 'right'
  className?: string
}) {
  return (
    <details className={`group no-js-only relative ${className}`}>
      <summary className={`${menuButtonClass} cursor-pointer list-none [&::-webkit-details-marker]:hidden`}>
        Menu
        <Chevron />
      </summary>
      <LinkList items={items} className={menuListClass(align)} linkClassName={menuItemClass} />
    </details>
  )
}

/** The fixed navigation bar (spec §2). */
export function SiteHeader({ brandName }: { brandName: string }) {
  const [caseStudies, sites, consultation] = routeItems as [NavItem, NavItem, NavItem]
  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-line/80 bg-paper/90 backdrop-blur">
      <nav aria-label="Main" className="content-width flex h-16 items-center justify-between gap-4">
        <IntentLink href="/" className="display text-lg tracking-tight text-ink uppercase">
          {brandName}
        </IntentLink>
        <NavMenu items={[...homeMenuItems, ...routeItems]} className="js-only md:hidden" />
        <NoScriptMenu items={[...homeMenuItems, ...routeItems]} className="md:hidden" />
        <div className="hidden items-center gap-2 md:flex">
          <NavMenu items={homeMenuItems} align="left" className="js-only" />
          <NoScriptMenu items={homeMenuItems} align="left" />
          <IntentLink
            href={caseStudies.href}
            className="flex min-h-11 items-center rounded-ui px-4 font-semibold text-ink hover:bg-accent-soft"
          >
            {caseStudies.label}
          </IntentLink>
          <IntentLink
            href={sites.href}
            className="flex min-h-11 items-center rounded-ui px-4 font-semibold text-ink hover:bg-accent-soft"
          >
            {sites.label}
          </IntentLink>
          <IntentLink href={consultation.href} className={`${buttonStyles.primary} ml-2 px-5 py-2`}>
            {consultation.label}
          </IntentLink>
        </div>
      </nav>
    </header>
  )
}
