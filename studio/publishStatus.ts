/** The document badge that tells an editor what became of their last publish (Building, Live since, Not live and why). */
import { useEffect, useState } from 'react'
import type { DocumentBadgeComponent, DocumentBadgeDescription } from 'sanity'
import { useEditorProof, type EditorProof } from './publisherProof.ts'
import { PUBLISH_STATUS_PATH, publisherBase } from './publisherApi.ts'

/** What the publisher answers (server/publishing/publish-status.ts); `reason` only to an editor. */
export type PublishState =
  | { state: 'unknown' }
  | { state: 'building'; since: string }
  | { state: 'live'; since: string; buildId: string }
  | { state: 'failed'; at: string; reason?: string }

/** ms between two asks while a build runs. */
export const POLL_MS = 2000

const clock = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' }).format(new Date(iso))

/** The badge for a state; null (no badge) for unknown or no answer. */
export function badgeFor(status: PublishState | null): DocumentBadgeDescription | null {
  switch (status?.state) {
    case 'building':
      return {
        label: 'Building',
        title: `The site is being rebuilt with this change (since ${clock(status.since)})`,
        color: 'primary',
      }
    case 'live':
      return {
        label: `Live since ${clock(status.since)}`,
        title: `Published on the site in build ${status.buildId}`,
        color: 'success',
      }
    case 'failed':
      return {
        label: 'Not live',
        title: status.reason
          ? `The site still shows the earlier version: ${status.reason}`
          : "The site still shows the earlier version; the publisher did not say why to this Studio (the reason is in the publisher's log)",
        color: 'danger',
      }
    default:
      return null
  }
}

/** Asks for one document's state with the editor's proof; a refused proof is forgotten and the ask repeated without it. */
async function askPublisher(url: string, proof: EditorProof, sameOrigin: boolean): Promise<Response> {
  const token = await proof.token()
  const credentials: RequestCredentials = sameOrigin ? 'same-origin' : 'omit'
  if (token) {
    const response = await fetch(url, { credentials, headers: { Authorization: `Bearer ${token}` } })
    if (response.status !== 401) return response
    proof.forget()
  }
  return fetch(url, { credentials })
}

/** The state of a document's last publish, asked again while it builds and whenever the published `revision` changes. */
export function usePublishState(
  endpoint: string,
  id: string,
  revision: string | undefined,
  proof: EditorProof,
): PublishState | null {
  const [status, setStatus] = useState<PublishState | null>(null)
  useEffect(() => {
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const ask = async () => {
      try {
        const url = `${endpoint}/${encodeURIComponent(id)}`
        const response = await askPublisher(url, proof, endpoint.startsWith('/'))
        const next = response.ok ? ((await response.json()) as PublishState) : null
        if (stopped) return
        setStatus(next)
        if (next?.state === 'building') timer = setTimeout(ask, POLL_MS)
      } catch {
        if (!stopped) setStatus(null)
      }
    }
    void ask()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [endpoint, id, revision, proof])
  return status
}

/** The badge component for `document.badges`; `publisherUrl` '' asks the Studio's own origin. */
export function publishStatusBadge(
  publisherUrl: string,
  useProof: () => EditorProof = useEditorProof,
): DocumentBadgeComponent {
  const endpoint = `${publisherBase(publisherUrl)}${PUBLISH_STATUS_PATH}`
  const PublishStatusBadge: DocumentBadgeComponent = (props) =>
    badgeFor(usePublishState(endpoint, props.id, props.published?._rev, useProof()))
  return PublishStatusBadge
}
