/** The one style of text inputs and text areas (design tokens: line, accent focus, 48 px tall). */
export const fieldClass =
  'mt-2 block min-h-12 w-full rounded-ui border border-line-strong bg-surface px-4 py-3 text-base text-ink placeholder:text-muted/70 focus:border-accent focus:outline-none focus-visible:outline-3 focus-visible:outline-accent'
