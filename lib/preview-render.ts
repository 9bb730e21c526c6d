/**
 * The script nonce of an editor's preview render, for `app/`: the preview server renders an
 * editor's request in Next's draft mode (the publisher turns it on, server/preview-server.ts);
 * the static export never does.
 */
import { draftMode, headers } from 'next/headers'

/**
 * The script nonce of a preview render: the one in the Content-Security-Policy the
 * publisher gave the request (Next puts the same on its own scripts). The site's own
 * inline script (the splash's boot script) carries it too, or the policy blocks it.
 * @returns the nonce, or undefined outside draft mode (visitors' pages use script hashes)
 */
export async function previewScriptNonce(): Promise<string | undefined> {
  if (!(await draftMode()).isEnabled) return undefined
  const policy = (await headers()).get('content-security-policy') ?? ''
  return /'nonce-([A-Za-z0-9+/=_-]+)'/.exec(policy)?.[1]
}
