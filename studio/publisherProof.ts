/**
 * How the Studio proves to the publisher that an editor is asking, so that the publisher
 * tells it why a publish failed (anyone else learns only "not live").
 * Nothing built into the Studio's bundle can be the proof: the bundle is public. The
 * proof is a secret the signed-in editor creates, the way Sanity's Presentation tool
 * does for its preview (`@sanity/preview-url-secret`): a short-lived document in the
 * project's dataset that only someone with write access can create, and that the
 * publisher looks up with its own read token. The Studio creates one per editor and
 * hour and sends it as `Authorization: Bearer <secret>`.
 */
import { useMemo } from 'react'
import { createPreviewSecret } from '@sanity/preview-url-secret/create-secret'
import { useClient, useCurrentUser, type SanityClient } from 'sanity'

/** A proof to send, and a way to drop it when the publisher refused it. */
export type EditorProof = {
  /** @returns the secret to send as a bearer token, or null when none could be made */
  token: () => Promise<string | null>
  /** Forgets the current secret (the publisher answered 401); the next ask makes another. */
  forget: () => void
}

/** Renew a secret this long before Sanity's one-hour lifetime ends. */
const RENEW_BEFORE_MS = 10 * 60_000

/** One secret per project, dataset and editor, shared by every badge of the Studio. */
const secrets = new Map<string, Promise<{ secret: string; expiresAt: Date } | null>>()

/**
 * @param client the Studio's client, signed in as the editor
 * @param userId the editor's Sanity user id, stored with the secret as Presentation does
 * @returns the proof of this editor (see the module comment)
 */
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

/** The signed-in editor's proof, for components inside the Studio. */
export function useEditorProof(): EditorProof {
  const client = useClient({ apiVersion: '2025-02-19' })
  const user = useCurrentUser()
  return useMemo(() => editorProof(client, user?.id), [client, user?.id])
}
