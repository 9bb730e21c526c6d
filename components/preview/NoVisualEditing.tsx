/** The export's `PreviewVisualEditing` (next.config.mjs aliases it): nothing, so visitors' bundles carry no preview. */
export function PreviewVisualEditing(): null {
  return null
}
