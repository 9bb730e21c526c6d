/** The Content-Security-Policy of a page: the site itself and exactly the origins site settings name, nothing else. */

export type IntegrationSettings = {
  /** An https URL or a path on this site. */
  bookingWidgetUrl: string
  bookingScriptUrl?: string | null
  contactWebhookUrl: string
}

/** The origin of an https URL from settings, or null for a path. @throws Error for anything else (a guard) */
export function externalOrigin(url: string | null | undefined): string | null {
  if (!url || url.startsWith('/')) return null
  const parsed = new URL(url)
  if (parsed.protocol !== 'https:') throw new Error(`Only https origins may be allowed, not "${url}"`)
  return parsed.origin
}

/** More sources for some directives of one page's policy, e.g. `{ 'connect-src': ['https://x'] }`. */
export type ExtraSources = Partial<Record<string, string[]>>

/**
 * The Content-Security-Policy of one page; `scriptSources`: its inline scripts' hashes, or a nonce.
 * @param options framedBySelf: a page this site frames itself; extra: more sources (`studioSources`)
 */
export function contentSecurityPolicy(
  scriptSources: string[],
  settings: IntegrationSettings,
  options: { framedBySelf?: boolean; frameAncestors?: string[]; extra?: ExtraSources } = {},
): string {
  const booking = externalOrigin(settings.bookingWidgetUrl)
  const bookingScript = externalOrigin(settings.bookingScriptUrl)
  const webhook = externalOrigin(settings.contactWebhookUrl)
  const directives: [string, (string | null)[]][] = [
    ['default-src', [`'self'`]],
    ['script-src', [`'self'`, ...scriptSources, bookingScript]],
    ['style-src', [`'self'`, `'unsafe-inline'`]],
    ['img-src', [`'self'`, 'data:']],
    ['font-src', [`'self'`]],
    ['connect-src', [`'self'`, webhook]],
    ['frame-src', [`'self'`, booking]],
    ['form-action', [`'self'`, webhook]],
    ['base-uri', [`'none'`]],
    ['object-src', [`'none'`]],
    ['frame-ancestors', options.frameAncestors ?? [options.framedBySelf ? `'self'` : `'none'`]],
  ]
  return directives
    .map(([name, sources]) => {
      const all = [...sources, ...(options.extra?.[name] ?? [])].filter(Boolean)
      return `${name} ${[...new Set(all)].join(' ')}`
    })
    .join('; ')
}
