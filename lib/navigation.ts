/** Navigation items (spec §2, Navigation bar and Footer): fixed UI labels, not editable content. */
export type NavItem = { label: string; href: string }

/** Home plus the five home-page anchors: the desktop Menu dropdown. */
export const homeMenuItems: NavItem[] = [
  { label: 'Home', href: '/' },
  { label: 'How We Can Help You', href: '/#services' },
  { label: 'Is This You', href: '/#who-needs-it' },
  { label: 'FAQs', href: '/#faq' },
  { label: 'Reviews', href: '/#reviews' },
  { label: 'Contact Us', href: '/#contact' },
]

/** Footer anchors, in the spec's order (§2 item 9). */
export const footerItems: NavItem[] = [
  { label: 'How We Can Help You', href: '/#services' },
  { label: 'Home', href: '/#homepage' },
  { label: 'Is This You', href: '/#who-needs-it' },
  { label: 'Contact Us', href: '/#contact' },
  { label: 'FAQs', href: '/#faq' },
]

/** Spec §9: when an anchor is not on the page yet, try again after this many ms. */
export const ANCHOR_RETRY_MS = 100

/** The section id a home-page anchor href points at (`'/#services'` -> 'services'), or null for a route item. */
export function anchorOf(href: string): string | null {
  const hash = href.split('#')[1]
  return hash ? decodeURIComponent(hash) : null
}
