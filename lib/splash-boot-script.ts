/** The loading splash's boot script, apart from lib/splash.ts so the client bundle never carries it. */
import { SPLASH_SEEN_KEY } from './splash.ts'
import { STUDIO_BASE_PATH } from './studio.ts'

/** Inline in <head>, before the first paint: marks the first page load of a visit as showing the splash (never under the Studio). */
export const BOOT_SCRIPT = `(function(d){try{if(location.pathname.indexOf(${JSON.stringify(STUDIO_BASE_PATH)})!==0&&!sessionStorage.getItem("${SPLASH_SEEN_KEY}")){sessionStorage.setItem("${SPLASH_SEEN_KEY}","1");d.dataset.splash=""}}catch(e){}})(document.documentElement)`
