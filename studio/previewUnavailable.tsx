/** The Preview tool's check that the publisher serves draft previews, and the screen that says why not and what to set. */
import { Card, Flex, Heading, Spinner, Stack, Text } from '@sanity/ui'
import { useEffect, useState, type ComponentType } from 'react'
import type { Tool } from 'sanity'
import { PUBLISHER_INFO_PATH, publisherBase } from './publisherApi.ts'

export type PreviewProblem =
  | { kind: 'no-publisher' }
  | { kind: 'not-served'; origin: string }
  | { kind: 'preview-off'; origin: string }
  | { kind: 'unreachable'; origin: string; error: string }

type Check = { state: 'checking' } | { state: 'ready' } | { state: 'problem'; problem: PreviewProblem }

const NEEDS_PUBLISHER = 'Preview needs the publisher'

/** What an editor reads for each problem: a title, what to do, and the setting. */
export function explain(problem: PreviewProblem): { title: string; body: string; setting?: string } {
  switch (problem.kind) {
    case 'no-publisher':
      return {
        title: NEEDS_PUBLISHER,
        body: 'Drafts are previewed on the site’s publisher, and this Studio has none configured. Set the publisher’s address when building or running the Studio, and list this Studio’s origin in the publisher’s STUDIO_ORIGINS.',
        setting: 'SANITY_STUDIO_PUBLISHER_URL=https://www.example.co.uk',
      }
    case 'not-served':
      return {
        title: NEEDS_PUBLISHER,
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
        title: NEEDS_PUBLISHER,
        body: `The publisher at ${problem.origin} did not answer (${problem.error}). It may be down, or may not list this Studio’s origin in STUDIO_ORIGINS.`,
      }
  }
}

const failed = (problem: PreviewProblem): Check => ({ state: 'problem', problem })

/** Asks the publisher (`publisherUrl`, '' for this origin) whether it serves draft previews; never throws. */
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
        ? failed({ kind: 'unreachable', origin, error: 'this Studio’s origin is refused' })
        : failed({ kind: 'not-served', origin })
    return info.preview === true ? { state: 'ready' } : failed({ kind: 'preview-off', origin })
  } catch (error) {
    return failed({ kind: 'unreachable', origin, error: (error as Error).message })
  }
}

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

/** `Screen` once the publisher has said it serves previews; a spinner until then, else `PreviewUnavailable`. */
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
