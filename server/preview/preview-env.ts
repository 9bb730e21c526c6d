/** The publisher's secrets, which the preview process must never hold (SECURITY.md, "What editors save"). */

/** The webhook's and the preview's secrets (with a rotation's previous ones) and the seed's write token. */
export const WITHHELD_SETTINGS: readonly string[] = [
  'SANITY_WEBHOOK_SECRET',
  'SANITY_WEBHOOK_SECRET_PREVIOUS',
  'SANITY_PREVIEW_SECRET',
  'SANITY_PREVIEW_SECRET_PREVIOUS',
  'SANITY_API_WRITE_TOKEN',
]

/** `env` with each withheld setting empty: Next's `.env*` loading never overrides a set variable, even an empty one. */
export function previewEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, ...Object.fromEntries(WITHHELD_SETTINGS.map((name) => [name, ''])) }
}

/** The withheld settings that hold a value in `env` (their names only). */
export const secretsIn = (env: Readonly<Record<string, string | undefined>>): string[] =>
  WITHHELD_SETTINGS.filter((name) => env[name])

/** @throws Error naming (never showing) each withheld setting `env` holds; `when` says what just happened */
export function refuseSecrets(
  when: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): void {
  const held = secretsIn(env)
  if (held.length)
    throw new Error(
      `preview process: ${held.join(', ')} ${held.length > 1 ? 'are' : 'is'} set ${when}: it stops here, ` +
        "as it must not hold the publisher's secrets. The publisher (npm start) starts it with each of " +
        `them set empty, which no .env* file overrides; started another way, set them empty too (${WITHHELD_SETTINGS.map((name) => `${name}=`).join(' ')})`,
    )
}
