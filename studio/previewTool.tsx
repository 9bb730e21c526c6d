/** The Studio's "Preview" tool: Presentation beside the document, showing the preview server's render of drafts on request. */
import { definePlugin, type PluginOptions } from 'sanity'
import { presentationTool } from 'sanity/presentation'
import { locations } from './locations.ts'
import { PREVIEW_ENABLE_PATH, publisherBase } from './publisherApi.ts'
import { PreviewUnavailable, withPublisherCheck } from './previewUnavailable.tsx'

/** Its URL segment (/studio/preview) and title. */
export const PREVIEW_TOOL = { name: 'preview', title: 'Preview' } as const

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
 * The "Preview" tool; `publisherUrl` '' is the Studio's own origin, undefined none (the tool says how to set one).
 * @throws Error when `sanity/presentation` no longer returns its tools as a list
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
