/** The look of the navigation's 'Menu' button, shared by its light shell and the Headless UI menu. */
export const menuButtonClass =
  'group flex min-h-11 items-center gap-2 rounded-ui px-4 text-base font-semibold text-ink hover:bg-accent-soft data-open:bg-accent-soft'

/** The button's chevron; it turns when the menu is open (Headless UI's data-open, or an open <details>). */
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
