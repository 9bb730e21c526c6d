/**
 * A warning before an editor unpublishes or deletes a document that other published
 * documents link to. The site's publish gate (the publisher's server/gate.ts) checks
 * every page's links, so the rebuild after such an unpublish would be held back, the
 * site staying as it was, until those links are removed. The built-in `unpublish` and
 * `delete` actions are wrapped: when linking documents exist, a confirmation dialog
 * names them first; confirming goes on to Sanity's own dialog as before.
 * What counts as a link is what is stored: a reference to the document, or a case study
 * text link (the `link` annotation of schemaTypes/urls.ts, an `href` string in the
 * blocks' `markDefs`) to the document's page address (locations.ts).
 */
import { useState } from 'react'
import { useClient } from 'sanity'
import type { DocumentActionComponent, DocumentActionDescription, SanityDocument } from 'sanity'
import { caseStudyHref } from './locations.ts'

/** Sanity API version of the query. */
const API_VERSION = '2025-02-19'

/** Actions after which the document's page is gone from the site. */
const REMOVING_ACTIONS = new Set(['unpublish', 'delete'])

/**
 * Other published documents that refer to `$id` or link to one of `$hrefs`: the text
 * fields with the link annotation are a case study's issue, solution and outcome
 * (schemaTypes/caseStudy.ts). A link's `#fragment` and `?query` are ignored, as the gate
 * ignores them.
 */
export const LINKING_DOCUMENTS_QUERY = /* groq */ `*[
  _id != $id && !(_id in path("drafts.**")) && !(_id in path("versions.**")) && (
    references($id) ||
    count([...issue[].markDefs[], ...solution[].markDefs[], ...outcome[].markDefs[]][
      _type == "link" && string::split(string::split(href, "#")[0], "?")[0] in $hrefs
    ]) > 0
  )
] | order(_id asc) {_id, "title": coalesce(title, name, question, brandName, _id)}`

/** A document that links to the one being removed. */
export type LinkingDocument = { _id: string; title: string }

/**
 * The page addresses a published document answers at: a case study's own page and the
 * page of its legacy id (as typed in a link: percent-encoded, e.g. `Osteopath%20Lancing`).
 * @returns [] for other types, whose documents have no page of their own
 */
export function pageAddressesOf(doc: SanityDocument): string[] {
  if (doc._type !== 'caseStudy') return []
  const segments = [(doc.slug as { current?: string } | undefined)?.current, doc.legacyId]
  return [
    ...new Set(
      segments
        .filter((segment): segment is string => typeof segment === 'string' && segment !== '')
        .flatMap((segment) => [caseStudyHref(segment), caseStudyHref(encodeURIComponent(segment))]),
    ),
  ]
}

/** A client that can run the query (the Studio's, from `useClient`). */
type QueryClient = { fetch: <R>(query: string, params: Record<string, unknown>) => Promise<R> }

/**
 * @param published the published version of the document about to be removed
 * @returns the other published documents that link to it, with their titles
 * @throws when the query fails
 */
export function linkingDocuments(client: QueryClient, published: SanityDocument): Promise<LinkingDocument[]> {
  return client.fetch<LinkingDocument[]>(LINKING_DOCUMENTS_QUERY, {
    id: published._id,
    hrefs: pageAddressesOf(published),
  })
}

/** What the editor reads in the dialog. */
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

/** The wrapper's state: nothing yet, asking the dataset, or the dialog with what it found. */
type Check = { state: 'idle' } | { state: 'checking' } | { state: 'warn'; documents: LinkingDocument[] }

/**
 * Wraps a built-in `unpublish` or `delete` action (see the module comment).
 * @param original Sanity's action; it keeps its `action` key, so other config still finds it
 * @returns an action that looks like the original and asks first when others link here
 */
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
    const warning: DocumentActionDescription['dialog'] =
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
        : null
    return {
      ...description,
      disabled: description.disabled || check.state === 'checking',
      onHandle: handle,
      dialog: warning ?? description.dialog,
    }
  }
  Wrapped.action = original.action
  Wrapped.displayName = `LinkWarning(${original.displayName ?? original.action ?? 'action'})`
  return Wrapped
}

/**
 * For `document.actions`: the `unpublish` and `delete` actions wrapped, the others as they are.
 * @param action one action of the list Sanity passes
 */
export const warnWhenLinked = (action: DocumentActionComponent): DocumentActionComponent =>
  action.action && REMOVING_ACTIONS.has(action.action) ? withLinkWarning(action) : action
