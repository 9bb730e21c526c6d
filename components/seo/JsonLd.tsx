import { scriptSafeJson } from '@/lib/text'

/**
 * Structured data for search engines: one `<script type="application/ld+json">`.
 * Browsers do not execute this type, so the server's Content-Security-Policy
 * (postbuild/security-headers.ts) leaves it out of its script hashes.
 * @param data a schema.org object, e.g. from `organizationJsonLd` in lib/seo.ts
 */
export function JsonLd({ data }: { data: object }) {
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: scriptSafeJson(data) }} />
}
