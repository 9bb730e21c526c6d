'use client'

import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react'
import Link from 'next/link'
import { usePathname, useRouter } from 'next/navigation'
import { useEffect, useRef, type MouseEvent } from 'react'
import { anchorOf, ANCHOR_RETRY_MS, type NavItem } from '@/lib/navigation'
import { scrollBehavior, scrollToAnchor } from '@/lib/scroll'
import { Chevron, menuButtonClass } from './menuButton'

/** What the 'Menu' takes, here and in its light shell (NavMenu); `align` is the edge the open list lines up with. */
export type NavMenuProps = {
  items: NavItem[]
  className?: string
  align?: 'left' | 'right'
}

const itemClass =
  'flex min-h-11 w-full items-center rounded-ui px-4 text-left text-base font-medium text-ink data-focus:bg-accent-soft'

/**
 * The 'Menu' dropdown (spec §2) on Headless UI's Menu; anchor items scroll to their section (spec §9).
 * `openOnMount`: focus and open at once, since the visitor pressed the shell's button.
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
