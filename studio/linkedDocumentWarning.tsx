/**
 * A warning before an editor unpublishes or deletes a document other published documents
 * link to: the publish gate would hold that rebuild back until the links are gone.
 */
import { useState } from 'react'
import { useClient } from 'sanity'
import type { DocumentActionComponent, SanityDocument } from 'sanity'
import { caseStudyHref } from './schemaTypes/sitePages.ts'

const API_VERSION = '2025-02-19'

/** Other published documents that refer to `$id`, or whose case study text links to one of `$hrefs` (fragment and query ignored, as the gate does). */
export const LINKING_DOCUMENTS_QUERY = /* groq */ `*[
  _id != $id && !(_id in path("drafts.**")) && !(_id in path("versions.**")) && (
    references($id) ||
    count([...issue[].markDefs[], ...solution[].markDefs[], ...outcome[].markDefs[]][
      _type == "link" && string::split(string::split(href, "#")[0], "?")[0] in $hrefs
    ]) > 0
  )
] | order(_id asc) {_id, "title": coalesce(title, name, question, brandName, _id)}`

export type LinkingDocument = { _id: string; title: string }

/** The addresses a case study answers at, as typed in links (slug and legacy id, raw and percent-encoded); [] for other types. */
export function pageAddressesOf(doc: SanityDocument): string[] {
  if (doc._type !== 'caseStudy') return []
  const segments = [(doc.slug as { current?: string } | undefined)?.current, doc.legacyId].filter(
    (segment): segment is string => typeof segment === 'string' && segment !== '',
  )
  return [...new Set(segments.flatMap((segment) => [segment, encodeURIComponent(segment)]))].map(
    caseStudyHref,
  )
}

type QueryClient = { fetch: <R>(query: string, params: Record<string, unknown>) => Promise<R> }

/** The other published documents that link to `published`, with their titles; throws when the query fails. */
export function linkingDocuments(client: QueryClient, published: SanityDocument): Promise<LinkingDocument[]> {
  return client.fetch<LinkingDocument[]>(LINKING_DOCUMENTS_QUERY, {
    id: published._id,
    hrefs: pageAddressesOf(published),
  })
}

function Warning({ documents, verb }: { documents: LinkingDocument[]; verb: string }) {
  return (
    <>
      <p>
        {documents.length === 1
          ? 'Another published document links to this one:'
          : `${documents.length} other published documents link to this one:`}
      </p>
      <ul>
        {documents.map((doc) => (
          <li key={doc._id}>{doc.title}</li>
        ))}
      </ul>
      <p>
        If you {verb} it, the site is not updated: the publish is held back until those links are removed.
        Remove the links first, or {verb} it anyway and the site keeps showing it until then.
      </p>
    </>
  )
}

type Check = { state: 'idle' } | { state: 'checking' } | { state: 'warn'; documents: LinkingDocument[] }

/** Sanity's `unpublish` or `delete` action (same `action` key), asking first when others link here. */
export function withLinkWarning(original: DocumentActionComponent): DocumentActionComponent {
  const verb = original.action === 'delete' ? 'delete' : 'unpublish'
  const Wrapped: DocumentActionComponent = (props) => {
    const description = original(props)
    const client = useClient({ apiVersion: API_VERSION })
    const [check, setCheck] = useState<Check>({ state: 'idle' })
    if (!description) return null
    const proceed = () => {
      setCheck({ state: 'idle' })
      description.onHandle?.()
    }
    const handle = () => {
      // A draft that was never published is no page of the site.
      if (!props.published) return proceed()
      setCheck({ state: 'checking' })
      linkingDocuments(client, props.published).then(
        (documents) => (documents.length ? setCheck({ state: 'warn', documents }) : proceed()),
        // Could not ask: Sanity's own dialog as usual; the gate still holds a broken link back.
        proceed,
      )
    }
    return {
      ...description,
      disabled: description.disabled || check.state === 'checking',
      onHandle: handle,
      dialog:
        check.state === 'warn'
          ? {
              type: 'confirm',
              tone: 'critical',
              message: <Warning documents={check.documents} verb={verb} />,
              confirmButtonText: verb === 'delete' ? 'Delete anyway' : 'Unpublish anyway',
              cancelButtonText: 'Keep it',
              onConfirm: proceed,
              onCancel: () => setCheck({ state: 'idle' }),
            }
          : description.dialog,
    }
  }
  Wrapped.action = original.action
  Wrapped.displayName = `LinkWarning(${original.displayName ?? original.action ?? 'action'})`
  return Wrapped
}

/** For `document.actions`: `unpublish` and `delete` wrapped, the others as they are. */
export const warnWhenLinked = (action: DocumentActionComponent): DocumentActionComponent =>
  action.action === 'unpublish' || action.action === 'delete' ? withLinkWarning(action) : action
