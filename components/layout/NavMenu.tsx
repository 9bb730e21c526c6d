'use client'

import { useEffect, useRef, useState } from 'react'
import type { HeadlessNavMenu, NavMenuProps } from './HeadlessNavMenu'
import { Chevron, menuButtonClass } from './menuButton'

type LoadedMenu = typeof HeadlessNavMenu
let loading: Promise<LoadedMenu> | null = null
/** Loads the Headless UI menu's code once for the page; a failed load is forgotten, so the next try loads again. */
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

const prefetchMenu = () => void loadMenu().catch(() => {})

/**
 * The 'Menu' (spec §2): a light shell that fetches HeadlessNavMenu's 30 KB when idle (or on
 * hover or focus) and swaps it in on click, the last event of a press.
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
