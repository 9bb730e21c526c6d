'use client'

import { useEffect, useRef, useState } from 'react'
// Types only (erased): the menu's code itself is loaded by loadMenu, never with this shell.
import type { HeadlessNavMenu, NavMenuProps } from './HeadlessNavMenu'
import { Chevron, menuButtonClass } from './menuButton'

type LoadedMenu = typeof HeadlessNavMenu
let loading: Promise<LoadedMenu> | null = null
/**
 * Loads the Headless UI menu's code once, for every NavMenu on the page. A failed load
 * (offline) is forgotten, so the next hover, focus or press tries again.
 */
function loadMenu(): Promise<LoadedMenu> {
  loading ??= import('./HeadlessNavMenu').then(
    (module) => module.HeadlessNavMenu,
    (error: unknown) => {
      loading = null
      throw error
    },
  )
  return loading
}

/** Starts loading the menu's code ahead of a press; a failure here is retried by the press. */
const prefetchMenu = () => void loadMenu().catch(() => {})

/**
 * The navigation's 'Menu' (spec §2). The menu itself is Headless UI's (HeadlessNavMenu),
 * about 30 KB of script that the first paint does not need: its code is fetched when
 * the browser is idle after the page has loaded (or when the visitor points at or
 * focuses this button), and it takes this button's place when the visitor presses it,
 * opening at once. The swap happens on the click, the last event of a press, so no
 * half of a press lands on a different element.
 */
export function NavMenu(props: NavMenuProps) {
  const [Menu, setMenu] = useState<LoadedMenu | null>(null)
  const mounted = useRef(true)

  useEffect(() => {
    mounted.current = true
    const whenIdle = () =>
      'requestIdleCallback' in window
        ? requestIdleCallback(prefetchMenu, { timeout: 4000 })
        : setTimeout(prefetchMenu, 2000)
    if (document.readyState === 'complete') whenIdle()
    else window.addEventListener('load', whenIdle, { once: true })
    return () => {
      mounted.current = false
      window.removeEventListener('load', whenIdle)
    }
  }, [])

  if (Menu) return <Menu {...props} openOnMount />
  return (
    <div className={`relative ${props.className ?? ''}`}>
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded="false"
        className={menuButtonClass}
        onPointerEnter={prefetchMenu}
        onFocus={prefetchMenu}
        onClick={() =>
          void loadMenu().then(
            (loaded) => {
              if (mounted.current) setMenu(() => loaded)
            },
            () => {}, // offline: the button stays, and the next press tries again
          )
        }
      >
        Menu
        <Chevron />
      </button>
    </div>
  )
}
