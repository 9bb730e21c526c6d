/** The look of the navigation's 'Menu' button, shared by its light shell and the Headless UI menu. */
export const menuButtonClass =
  'group flex min-h-11 items-center gap-2 rounded-ui px-4 text-base font-semibold text-ink hover:bg-accent-soft data-open:bg-accent-soft'

/** The open list's box, lined up with the button's `align` edge; the same in every version of the Menu. */
export const menuListClass = (align: 'left' | 'right') =>
  `absolute ${align === 'right' ? 'right-0' : 'left-0'} mt-2 w-64 rounded-ui border border-line bg-surface p-2 shadow-lift focus:outline-none`

/** One item of the open list: Headless UI marks the active one data-focus; the others take hover and focus. */
export const menuItemClass =
  'flex min-h-11 items-center rounded-ui px-4 text-base font-medium text-ink hover:bg-accent-soft focus-visible:bg-accent-soft data-focus:bg-accent-soft'

/** The button's chevron; it turns when the menu is open (data-open, or an open <details>). */
export function Chevron() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      className="size-4 transition-transform group-open:rotate-180 group-data-open:rotate-180"
    >
      <path d="M5 7.5l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  )
}
