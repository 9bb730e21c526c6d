'use client'

import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react'
import Link from 'next/link'
import { usePathname, useRouter } from 'next/navigation'
import { useEffect, useRef, type MouseEvent } from 'react'
import { anchorOf, ANCHOR_RETRY_MS, type NavItem } from '@/lib/navigation'
import { scrollBehavior, scrollToAnchor } from '@/lib/scroll'
import { Chevron, menuButtonClass } from './menuButton'

/** What the navigation's 'Menu' takes: this menu, and the light shell (NavMenu) that stands in for it. */
export type NavMenuProps = {
  /** the links it lists, in order */
  items: NavItem[]
  /** where it shows (e.g. only below the md breakpoint) */
  className?: string
  /** which edge the open list lines up with */
  align?: 'left' | 'right'
}

const itemClass =
  'flex min-h-11 w-full items-center rounded-ui px-4 text-left text-base font-medium text-ink data-focus:bg-accent-soft'

/**
 * A 'Menu' dropdown (spec §2) built on Headless UI's Menu: a button with
 * `aria-expanded`, menu items operable with arrow keys, Enter and Escape; it closes
 * on selection, on a click outside and on Escape, returning focus to the button.
 * Anchor items ('/#faq') scroll smoothly to their section on /; from another route
 * they go to / and scroll after 100 ms (spec §9). Route items navigate and start at the top.
 * @param items the links it lists, in order
 * @param className where it shows (e.g. only below the md breakpoint)
 * @param align which edge the open list lines up with
 * @param openOnMount focus the button and open at once (the visitor pressed the shell's button)
 */
export function HeadlessNavMenu({
  items,
  className = '',
  align = 'right',
  openOnMount = false,
}: NavMenuProps & { openOnMount?: boolean }) {
  const pathname = usePathname()
  const router = useRouter()
  const button = useRef<HTMLButtonElement>(null)

  // Taking over from the light shell (NavMenu) that the visitor just pressed:
  // keep the focus on the button and open, as they asked.
  useEffect(() => {
    if (!openOnMount) return
    button.current?.focus()
    button.current?.click()
  }, [openOnMount])

  function follow(event: MouseEvent<HTMLAnchorElement>, item: NavItem) {
    const anchor = anchorOf(item.href)
    if (!anchor) {
      if (item.href === pathname) {
        event.preventDefault()
        window.scrollTo({ top: 0, behavior: scrollBehavior() })
      }
      return // next/link navigates and starts the new page at the top
    }
    event.preventDefault()
    if (pathname === '/') {
      window.history.replaceState(null, '', `#${anchor}`)
      void scrollToAnchor(anchor)
    } else {
      router.push(item.href, { scroll: false })
      setTimeout(() => void scrollToAnchor(anchor, { delayMs: ANCHOR_RETRY_MS }), ANCHOR_RETRY_MS)
    }
  }

  return (
    <Menu as="div" className={`relative ${className}`}>
      <MenuButton ref={button} className={menuButtonClass}>
        Menu
        <Chevron />
      </MenuButton>
      <MenuItems
        modal={false}
        className={`absolute ${align === 'right' ? 'right-0' : 'left-0'} mt-2 w-64 rounded-ui border border-line bg-surface p-2 shadow-lift focus:outline-none`}
      >
        {items.map((item) => (
          <MenuItem key={item.href}>
            {({ close }) => (
              <Link
                href={item.href}
                onClick={(event) => {
                  follow(event, item)
                  // Headless UI skips its own close when the click was prevented (anchor items).
                  close()
                }}
                className={itemClass}
              >
                {item.label}
              </Link>
            )}
          </MenuItem>
        ))}
      </MenuItems>
    </Menu>
  )
}
