/**
 * What visitors' builds get for the Presentation connection (next.config.mjs): nothing,
 * and no client code, so their pages carry no trace of the preview.
 */
export function PresentationConnection() {
  return null
}
