/**
 * The settings the preview process must never hold, however the operator gives them: the
 * publisher's secrets, which no render needs. Next's own loading of `.env*` files
 * (`@next/env`, `loadEnvConfig`: `.env.production.local`, `.env.local`, `.env.production`,
 * `.env` in the app's folder) sets a variable only when the process did not start with it,
 * an empty value included. So the publisher starts the process with each of them set empty
 * (`previewEnv`), and no file brings it back, now or on any later load; the process refuses
 * to go on when one holds a value all the same (`refuseSecrets`).
 */

/**
 * The settings withheld from the preview process: the webhook's and the preview's secrets
 * (with the previous ones of a rotation) and the seed's write token.
 */
export const WITHHELD_SETTINGS: readonly string[] = [
  'SANITY_WEBHOOK_SECRET',
  'SANITY_WEBHOOK_SECRET_PREVIOUS',
  'SANITY_PREVIEW_SECRET',
  'SANITY_PREVIEW_SECRET_PREVIOUS',
  'SANITY_API_WRITE_TOKEN',
]

/**
 * The environment the preview process starts with: `env` with each withheld setting set
 * to the empty string (not removed: an absent variable is one a `.env*` file may set).
 */
export function previewEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, ...Object.fromEntries(WITHHELD_SETTINGS.map((name) => [name, ''])) }
}

/** The withheld settings that hold a value in `env` (their names only). */
export const secretsIn = (env: Readonly<Record<string, string | undefined>>): string[] =>
  WITHHELD_SETTINGS.filter((name) => env[name])

/**
 * For the preview process: refuses to go on holding a withheld setting.
 * @param when what just happened, for the message (e.g. "after Next loaded its .env files")
 * @throws Error naming each such variable, never its value
 */
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
