/**
 * The Studio's proof to the publisher that an editor asks (so it says why a publish failed):
 * a short-lived preview secret only a dataset writer can create, sent as a bearer token.
 */
import { useMemo } from 'react'
import { createPreviewSecret } from '@sanity/preview-url-secret/create-secret'
import { useClient, useCurrentUser, type SanityClient } from 'sanity'

/** `token` gives the secret (null when none could be made); `forget` drops it after a 401. */
export type EditorProof = {
  token: () => Promise<string | null>
  forget: () => void
}

/** Before the end of Sanity's one-hour lifetime. */
const RENEW_BEFORE_MS = 10 * 60_000

const secrets = new Map<string, Promise<{ secret: string; expiresAt: Date } | null>>()

/** The proof of the editor the client is signed in as (one secret per project, dataset and editor). */
export function editorProof(client: SanityClient, userId: string | undefined): EditorProof {
  const { projectId, dataset } = client.config()
  const key = `${projectId}:${dataset}:${userId ?? ''}`
  const make = () =>
    createPreviewSecret(client, 'publish-status', window.location.origin, userId).catch(() => null)
  return {
    token: async () => {
      let pending = secrets.get(key)
      const current = pending && (await pending)
      if (!pending || !current || current.expiresAt.getTime() - Date.now() < RENEW_BEFORE_MS) {
        pending = make()
        secrets.set(key, pending)
      }
      return (await pending)?.secret ?? null
    },
    forget: () => {
      secrets.delete(key)
    },
  }
}

export function useEditorProof(): EditorProof {
  const client = useClient({ apiVersion: '2025-02-19' })
  const user = useCurrentUser()
  return useMemo(() => editorProof(client, user?.id), [client, user?.id])
}
