import { stegaClean } from 'next-sanity'
import { scriptSafeJson } from '@/lib/text'

/**
 * Structured data for search engines: one `<script type="application/ld+json">`.
 * Browsers do not execute this type, so the server's Content-Security-Policy
 * (postbuild/security-headers.ts) leaves it out of its script hashes. The whole object is
 * cleaned, however deep (stega: structured data is read by machines, never an overlay, and
 * an encoded URL or name is a wrong one).
 * @param data a schema.org object, e.g. from `organizationJsonLd` in lib/seo.ts
 */
export function JsonLd({ data }: { data: object }) {
  return (
    <script
      type="application/ld+json"
      dangerouslySetInnerHTML={{ __html: scriptSafeJson(stegaClean(data)) }}
    />
  )
}
