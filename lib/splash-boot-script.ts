/**
 * The loading splash's boot script (spec §4, §9), apart from lib/splash.ts: the site's
 * document writes it into every page's <head>, and the splash's client component, which
 * imports lib/splash.ts, must not carry it (nor the Studio's path) into the browser.
 */
import { SPLASH_SEEN_KEY } from './splash.ts'
import { STUDIO_BASE_PATH } from './studio.ts'

/**
 * Runs in <head> before the first paint (inline, so the CSP allows it by its hash):
 * on the first page load of a visit, marks the document as showing the splash
 * (`data-splash`). Without JavaScript it is not set, so there is no splash. Not under the
 * embedded Studio (STUDIO_BASE_PATH).
 */
export const BOOT_SCRIPT = `(function(d){try{if(location.pathname.indexOf(${JSON.stringify(STUDIO_BASE_PATH)})!==0&&!sessionStorage.getItem("${SPLASH_SEEN_KEY}")){sessionStorage.setItem("${SPLASH_SEEN_KEY}","1");d.dataset.splash=""}}catch(e){}})(document.documentElement)`
