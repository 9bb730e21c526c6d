/**
 * The Studio's "Preview" tool: Sanity's Presentation tool showing the publisher's draft
 * preview (the site's real static pages built with drafts) beside the document, with
 * `resolve.locations` (studio/locations.ts) listing the pages each document is on.
 *
 * The preview only exists where the site runs on its publisher (`npm start` with
 * SANITY_PREVIEW_SECRET); the tool asks the publisher first and otherwise says why
 * there is none (studio/previewUnavailable.tsx).
 */
import { definePlugin, type PluginOptions } from 'sanity'
import { presentationTool } from 'sanity/presentation'
import { locations } from './locations.ts'
import { PREVIEW_ENABLE_PATH, publisherBase } from './publisherApi.ts'
import { PreviewUnavailable, withPublisherCheck } from './previewUnavailable.tsx'

/** The tool's name (its URL segment, /studio/preview) and title in the Studio's bar. */
export const PREVIEW_TOOL = { name: 'preview', title: 'Preview' } as const

/** The tool that only says preview needs a publisher (a Studio with none configured). */
const noPublisherTool = definePlugin({
  name: 'agency-site/preview-unavailable',
  tools: [
    {
      ...PREVIEW_TOOL,
      component: () => <PreviewUnavailable problem={{ kind: 'no-publisher' }} />,
    },
  ],
})

/**
 * The "Preview" tool for a Studio configuration.
 * @param publisherUrl the publisher's origin, '' for the Studio embedded in the site
 *   (its own origin), undefined for none (the tool then only says how to set one)
 * @returns a Studio plugin
 * @throws Error when `sanity/presentation` no longer returns its tools as a list, the
 *   shape this wraps to put the publisher check in front of it
 */
export function previewTool(publisherUrl: string | undefined): PluginOptions {
  if (publisherUrl === undefined) return noPublisherTool()
  const base = publisherBase(publisherUrl)
  const presentation = presentationTool({
    ...PREVIEW_TOOL,
    previewUrl: { ...(base ? { initial: base } : {}), previewMode: { enable: PREVIEW_ENABLE_PATH } },
    resolve: { locations },
  })
  if (!Array.isArray(presentation.tools))
    throw new Error(
      'previewTool: sanity/presentation no longer returns `tools` as an array; the publisher check cannot wrap it',
    )
  return {
    ...presentation,
    tools: presentation.tools.map((tool) => ({
      ...tool,
      component: withPublisherCheck(tool.component, base),
    })),
  }
}
