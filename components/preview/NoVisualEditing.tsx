/**
 * What the static export renders in place of `PreviewVisualEditing`: nothing, and no
 * client code (next.config.mjs aliases one to the other for the export), so visitors'
 * bundles carry no trace of the editors' preview.
 */
export function PreviewVisualEditing(): null {
  return null
}
