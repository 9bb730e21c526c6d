'use client'

import { useCallback, useEffect, useRef, useState, type ComponentType } from 'react'
import type { NavItem } from '@/lib/navigation'
import { Chevron, menuButtonClass } from './menuButton'

export type NavMenuProps = {
  /** the links it lists, in order */
  items: NavItem[]
  /** where it shows (e.g. only below the md breakpoint) */
  className?: string
  /** which edge the open list lines up with */
  align?: 'left' | 'right'
}

type LoadedMenu = ComponentType<NavMenuProps & { openOnMount?: boolean }>
let loading: Promise<LoadedMenu> | null = null
/** Loads the Headless UI menu once, for every NavMenu on the page. */
function loadMenu(): Promise<LoadedMenu> {
  loading ??= import('./HeadlessNavMenu').then((module) => module.HeadlessNavMenu)
  return loading
}

/**
 * The navigation's 'Menu' (spec §2). The menu itself is Headless UI's (HeadlessNavMenu),
 * about 30 KB of script that the first paint does not need, so it loads when the
 * browser is idle after the page has loaded, or at once when the visitor points at,
 * focuses or presses this button; a press before it has loaded opens it when it arrives.
 * Until then this renders the same button.
 */
export function NavMenu(props: NavMenuProps) {
  const [Menu, setMenu] = useState<LoadedMenu | null>(null)
  const [pressed, setPressed] = useState(false)
  const mounted = useRef(true)

  const load = useCallback(() => {
    void loadMenu().then((loaded) => {
      if (mounted.current) setMenu(() => loaded)
    })
  }, [])

  useEffect(() => {
    mounted.current = true
    const whenIdle = () =>
      'requestIdleCallback' in window ? requestIdleCallback(load, { timeout: 4000 }) : setTimeout(load, 2000)
    if (document.readyState === 'complete') whenIdle()
    else window.addEventListener('load', whenIdle, { once: true })
    return () => {
      mounted.current = false
      window.removeEventListener('load', whenIdle)
    }
  }, [load])

  if (Menu) return <Menu {...props} openOnMount={pressed} />
  return (
    <div className={`relative ${props.className ?? ''}`}>
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded="false"
        className={menuButtonClass}
        onPointerEnter={load}
        onFocus={load}
        onClick={() => {
          setPressed(true)
          load()
        }}
      >
        Menu
        <Chevron />
      </button>
    </div>
  )
}
