'use client'

import { useEffect, useId, useRef, useState } from 'react'
import { loadOnce } from '@/lib/load-once'
import type { HeadlessNavMenu, NavMenuProps } from './HeadlessNavMenu'
import { LinkList } from './LinkList'
import { Chevron, menuButtonClass, menuItemClass, menuListClass } from './menuButton'
import { useFollowNavItem } from './useFollowNavItem'

type LoadedMenu = typeof HeadlessNavMenu
const loadMenu = loadOnce(() => import('./HeadlessNavMenu').then((module) => module.HeadlessNavMenu))

/**
 * The 'Menu' (spec §2) as a light disclosure that opens at the first tap, closing on a choice, an outside
 * press and Escape. Headless UI's menu (about 32 KiB gzip) loads only when a visitor reaches for the button
 * (pointer over or down, focus) and takes over in the same state, never mid-press, which would lose the
 * click. Offline, the light menu keeps working and the next reach loads again.
 */
export function NavMenu(props: NavMenuProps) {
  const { items, className = '', align = 'right' } = props
  const [Loaded, setLoaded] = useState<LoadedMenu | null>(null)
  const [open, setOpen] = useState(false)
  const [focused, setFocused] = useState(false)
  const [pressing, setPressing] = useState(false)
  const root = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  const listId = useId()
  const follow = useFollowNavItem()
  const reach = () =>
    void loadMenu().then(
      (loaded) => setLoaded(() => loaded),
      () => {},
    )

  useEffect(() => {
    if (!open) return
    const closeOutside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false)
    }
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      setOpen(false)
      button.current?.focus()
    }
    document.addEventListener('pointerdown', closeOutside)
    document.addEventListener('keydown', closeOnEscape)
    return () => {
      document.removeEventListener('pointerdown', closeOutside)
      document.removeEventListener('keydown', closeOnEscape)
    }
  }, [open])

  if (Loaded && !pressing)
    return <Loaded {...props} takeOver={open ? 'open' : focused ? 'focus' : undefined} />
  return (
    <div
      ref={root}
      className={`relative ${className}`}
      // A press ends with its click (children's handlers run first) or is cancelled (a scroll).
      onPointerDown={() => setPressing(true)}
      onPointerCancel={() => setPressing(false)}
      onClick={() => setPressing(false)}
    >
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        data-open={open ? '' : undefined}
        className={menuButtonClass}
        onPointerEnter={reach}
        onPointerDown={reach}
        onFocus={() => {
          setFocused(true)
          reach()
        }}
        onBlur={() => setFocused(false)}
        onClick={() => setOpen(!open)}
      >
        Menu
        <Chevron />
      </button>
      {open && (
        <LinkList
          id={listId}
          items={items}
          className={menuListClass(align)}
          linkClassName={menuItemClass}
          onFollow={(event, item) => {
            follow(event, item)
            setOpen(false)
          }}
        />
      )}
    </div>
  )
}
