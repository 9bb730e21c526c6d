import { stegaClean } from 'next-sanity'
import { scriptSafeJson } from '@/lib/text'

/** A schema.org object as `<script type="application/ld+json">`, cleaned of stega however deep. */
export function JsonLd({ data }: { data: object }) {
  return (
    <script
      type="application/ld+json"
      dangerouslySetInnerHTML={{ __html: scriptSafeJson(stegaClean(data)) }}
    />
  )
}
