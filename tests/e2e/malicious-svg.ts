/**
 * An SVG as an attacker would choose it for a portfolio site's image, and how a browser
 * test tells whether anything of it ran: its script and handler set the document's title
 * and a global, and ask `/svg-ran` on its origin; its styles (a `style` attribute and a
 * `<style>`) paint its shapes, so a policy that blocked them would show.
 */
import type { Page } from '@playwright/test'

/** Where the drawing's script and handler report that they ran (a path on the drawing's origin). */
export const RAN_PATH = '/svg-ran'

/** The drawing: a red square by its `style` attribute, a blue circle by its `<style>`. */
export const MALICIOUS_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40" viewBox="0 0 40 40" onload="document.title = 'ran'; fetch('${RAN_PATH}?onload')">` +
  `<script>window.svgRan = true; document.title = 'ran'; fetch('${RAN_PATH}?script&amp;' + document.cookie)</script>` +
  '<style>circle { fill: rgb(0, 0, 255) }</style>' +
  '<rect id="square" width="20" height="40" style="fill: rgb(255, 0, 0)"/>' +
  '<circle id="dot" cx="30" cy="20" r="8" onmouseover="document.title = \'ran\'"/>' +
  `<foreignObject width="40" height="40"><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:parent.document.title='ran'"/></foreignObject>` +
  `<a xlink:href="javascript:document.title='ran'"><text x="2" y="38" font-size="4">link</text></a></svg>\n`

/**
 * What the drawing open in `page` shows of a script having run, and how its shapes are
 * painted: `ran` is empty when nothing ran. Hovers over the circle first, for its handler.
 * @param requests the paths its origin was asked for since it opened
 */
export async function whatRan(page: Page, requests: string[]) {
  await page.mouse.move(30, 20)
  await page.waitForTimeout(300)
  const seen = await page.evaluate(() => ({
    title: document.title,
    global: 'svgRan' in window,
    square: getComputedStyle(document.getElementById('square')!).fill,
    dot: getComputedStyle(document.getElementById('dot')!).fill,
  }))
  const ran = [
    ...(seen.title === 'ran' ? ['the title was set'] : []),
    ...(seen.global ? ['the global was set'] : []),
    ...requests.filter((path) => path.startsWith(RAN_PATH)),
  ]
  return { ran, square: seen.square, dot: seen.dot }
}
