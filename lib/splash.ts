/** The loading splash's timing (spec §4, §9); its boot script is splash-boot-script.ts, kept out of the client bundle. */

/** Spec §9: the percentage rises by 1 every 20 ms. */
export const SPLASH_TICK_MS = 20
/** Spec §9: the fade starts at 1.8 s (its 0.5 s length is the `.splash` transition in app/globals.css)... */
export const SPLASH_FADE_AT_MS = 1800
/** ...and the splash is gone (removed) at 2200 ms. */
export const SPLASH_TOTAL_MS = 2200

/** sessionStorage key: set once the splash has been shown in this visit (tab). */
export const SPLASH_SEEN_KEY = 'splash-seen'

/** The percentage the splash shows `elapsedMs` after the page started loading (spec §4: +1 every 20 ms, up to 100). */
export function splashPercent(elapsedMs: number): number {
  return Math.max(0, Math.min(100, Math.floor(elapsedMs / SPLASH_TICK_MS)))
}
