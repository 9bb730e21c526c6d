/** The script nonce of an editor's preview render, for `app/`. */
import { draftMode, headers } from 'next/headers'

/**
 * The nonce in the Content-Security-Policy the preview process gave the request
 * (server/preview/preview-renderer.ts, which also turns draft mode on); the splash's boot script needs it.
 * @returns the nonce, or undefined outside draft mode (visitors' pages use script hashes)
 */
export async function previewScriptNonce(): Promise<string | undefined> {
  if (!(await draftMode()).isEnabled) return undefined
  const policy = (await headers()).get('content-security-policy') ?? ''
  return /'nonce-([A-Za-z0-9+/=_-]+)'/.exec(policy)?.[1]
}
