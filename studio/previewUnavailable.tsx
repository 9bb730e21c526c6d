/**
 * What the Studio's Preview tool shows before it opens a preview: it asks the publisher
 * (`/api/publisher`) whether it serves draft previews, and where none is served (the
 * site hosted on a CDN, a Studio with no publisher configured, a publisher with preview
 * off or out of reach) it says so, why, and what to set, instead of an empty frame.
 */
import { Card, Flex, Heading, Spinner, Stack, Text } from '@sanity/ui'
import { useEffect, useState, type ComponentType } from 'react'
import type { Tool } from 'sanity'
import { PUBLISHER_INFO_PATH, publisherBase } from './publisherApi.ts'

/** Why there is no preview to show. */
export type PreviewProblem =
  | { kind: 'no-publisher' }
  | { kind: 'not-served'; origin: string }
  | { kind: 'preview-off'; origin: string }
  | { kind: 'unreachable'; origin: string; error: string }

/** The publisher's answer, or the problem in asking. */
type Check = { state: 'checking' } | { state: 'ready' } | { state: 'problem'; problem: PreviewProblem }

/** What an editor reads for each problem: a heading-sized summary and what to do. */
export function explain(problem: PreviewProblem): { title: string; body: string; setting?: string } {
  switch (problem.kind) {
    case 'no-publisher':
      return {
        title: 'Preview needs the publisher',
        body: 'Drafts are previewed on the site’s publisher, and this Studio has none configured. Set the publisher’s address when building or running the Studio, and list this Studio’s origin in the publisher’s STUDIO_ORIGINS.',
        setting: 'SANITY_STUDIO_PUBLISHER_URL=https://www.example.co.uk',
      }
    case 'not-served':
      return {
        title: 'Preview needs the publisher',
        body: `The site at ${problem.origin} is served without its publisher (from a CDN or static host), so there is no preview of drafts here. Publishing works as usual; drafts can be previewed where the site runs on its publisher (npm start).`,
      }
    case 'preview-off':
      return {
        title: 'Preview is off on the publisher',
        body: `The publisher at ${problem.origin} builds no previews of drafts. Set a preview secret in its environment and restart it.`,
        setting: 'SANITY_PREVIEW_SECRET=<a long random value>',
      }
    case 'unreachable':
      return {
        title: 'Preview needs the publisher',
        body: `The publisher at ${problem.origin} did not answer (${problem.error}). It may be down, or may not list this Studio’s origin in STUDIO_ORIGINS.`,
      }
  }
}

/**
 * Asks the publisher whether it serves draft previews.
 * @param publisherUrl its origin, or '' for this Studio's own origin
 * @returns ready, or the problem (never throws)
 */
export async function checkPublisher(publisherUrl: string): Promise<Check> {
  const base = publisherBase(publisherUrl)
  const origin = base || globalThis.location?.origin || 'this site'
  try {
    const response = await fetch(`${base}${PUBLISHER_INFO_PATH}`, { credentials: 'omit' })
    const info: unknown = response.headers.get('content-type')?.includes('application/json')
      ? await response.json()
      : null
    if (!response.ok || typeof info !== 'object' || info === null || !('preview' in info))
      return response.status === 403
        ? {
            state: 'problem',
            problem: { kind: 'unreachable', origin, error: 'this Studio’s origin is refused' },
          }
        : { state: 'problem', problem: { kind: 'not-served', origin } }
    return info.preview === true
      ? { state: 'ready' }
      : { state: 'problem', problem: { kind: 'preview-off', origin } }
  } catch (error) {
    return { state: 'problem', problem: { kind: 'unreachable', origin, error: (error as Error).message } }
  }
}

/** The tool's screen when there is no preview: what is missing and what to set. */
export function PreviewUnavailable({ problem }: { problem: PreviewProblem }) {
  const { title, body, setting } = explain(problem)
  return (
    <Flex align="center" justify="center" height="fill" padding={4}>
      <Card padding={5} radius={3} border tone="caution" style={{ maxWidth: 560 }}>
        <Stack gap={4}>
          <Heading as="h1" size={2}>
            {title}
          </Heading>
          <Text size={2}>{body}</Text>
          {setting && (
            <Text size={1}>
              <code>{setting}</code>
            </Text>
          )}
        </Stack>
      </Card>
    </Flex>
  )
}

/**
 * A tool screen shown once the publisher has said it serves previews; until then a
 * spinner, and if it does not, `PreviewUnavailable`.
 * @param Screen the wrapped tool's component (the Presentation tool's)
 * @param publisherUrl the publisher's origin, or '' for this Studio's own
 */
export function withPublisherCheck(Screen: ComponentType<{ tool: Tool }>, publisherUrl: string) {
  function PreviewScreen(props: { tool: Tool }) {
    const [check, setCheck] = useState<Check>({ state: 'checking' })
    useEffect(() => {
      let current = true
      void checkPublisher(publisherUrl).then((result) => current && setCheck(result))
      return () => {
        current = false
      }
    }, [])
    if (check.state === 'checking')
      return (
        <Flex align="center" justify="center" height="fill">
          <Spinner muted />
        </Flex>
      )
    if (check.state === 'problem') return <PreviewUnavailable problem={check.problem} />
    return <Screen {...props} />
  }
  return PreviewScreen
}
