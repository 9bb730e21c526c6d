/**
 * The loading splash's timing (spec §4, §9) and the tiny script that decides,
 * before the first paint, whether this page load shows it.
 */
import { STUDIO_BASE_PATH } from './studio.ts'

/** Spec §9: the percentage rises by 1 every 20 ms. */
export const SPLASH_TICK_MS = 20
/** Spec §9: the fade starts at 1.8 s (its 0.5 s length is the `.splash` transition in app/globals.css)... */
export const SPLASH_FADE_AT_MS = 1800
/** ...and the splash is gone (removed) at 2200 ms. */
export const SPLASH_TOTAL_MS = 2200

/** sessionStorage key: set once the splash has been shown in this visit (tab). */
export const SPLASH_SEEN_KEY = 'splash-seen'

/**
 * The percentage the splash shows after `elapsedMs` (spec §4: +1 every 20 ms, up to 100).
 * @param elapsedMs time since the page started loading, in ms
 */
export function splashPercent(elapsedMs: number): number {
  return Math.max(0, Math.min(100, Math.floor(elapsedMs / SPLASH_TICK_MS)))
}

/**
 * Runs in <head> before the first paint (inline, so the CSP allows it by its hash):
 * on the first page load of a visit, marks the document as showing the splash
 * (`data-splash`). Without JavaScript it is not set, so there is no splash. Not under the
 * embedded Studio (STUDIO_BASE_PATH).
 */
export const BOOT_SCRIPT = `(function(d){try{if(location.pathname.indexOf(${JSON.stringify(STUDIO_BASE_PATH)})!==0&&!sessionStorage.getItem("${SPLASH_SEEN_KEY}")){sessionStorage.setItem("${SPLASH_SEEN_KEY}","1");d.dataset.splash=""}}catch(e){}})(document.documentElement)`
