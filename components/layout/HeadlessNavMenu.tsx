'use client'

import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react'
import { useEffect, useRef } from 'react'
import { IntentLink } from '@/components/ui/IntentLink'
import type { NavItem } from '@/lib/navigation'
import { Chevron, menuButtonClass, menuItemClass, menuListClass } from './menuButton'
import { useFollowNavItem } from './useFollowNavItem'

/** What the 'Menu' takes, here and in its light shell (NavMenu); `align` is the edge the open list lines up with. */
export type NavMenuProps = {
  items: NavItem[]
  className?: string
  align?: 'left' | 'right'
}

/** The state the light shell hands over in: open (and focused), or only focused. */
export type TakeOver = 'open' | 'focus' | undefined

/**
 * The 'Menu' dropdown (spec §2) on Headless UI's Menu: arrow keys, type-ahead, outside click and Escape.
 * `takeOver`: the light shell's state at the swap, taken on at mount.
 */
export function HeadlessNavMenu({
  items,
  className = '',
  align = 'right',
  takeOver,
}: NavMenuProps & { takeOver?: TakeOver }) {
  const follow = useFollowNavItem()
  const button = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    if (!takeOver) return
    button.current?.focus()
    if (takeOver === 'open') button.current?.click()
  }, [takeOver])

  return (
    <Menu as="div" className={`relative ${className}`}>
      <MenuButton ref={button} className={menuButtonClass}>
        Menu
        <Chevron />
      </MenuButton>
      <MenuItems modal={false} className={menuListClass(align)}>
        {items.map((item) => (
          <MenuItem key={item.href}>
            {({ close }) => (
              <IntentLink
                href={item.href}
                onClick={(event) => {
                  follow(event, item)
                  // Headless UI skips its own close when the click was prevented (anchor items).
                  close()
                }}
                className={menuItemClass}
              >
                {item.label}
              </IntentLink>
            )}
          </MenuItem>
        ))}
      </MenuItems>
    </Menu>
  )
}
