/**
 * @jest-environment node
 *
 * The share cards (components/og/OgCard.tsx) of a preview build, whose content carries
 * stega (see stega-clean.test.tsx): a card is a picture, never an overlay, so one drawn from
 * encoded strings is the very card the clean strings give (the title's length sets its font
 * size). next/og's renderer needs jest's experimental VM modules, so what it is handed is
 * recorded instead and compared as markup.
 */
import type { ReactElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import sharp from 'sharp'
import { ogCardImage, type OgCardProps } from '@/components/og/OgCard'
import { seedDocuments } from '../../helpers/dataset'
import { encode, hasStega } from '../../helpers/stega'

const mockDrawn: ReactElement[] = []
/** A 1 x 1 PNG, what the recording renderer gives the palette step that follows. */
let mockPng: ArrayBuffer
jest.mock('next/og', () => ({
  ImageResponse: class {
    constructor(element: ReactElement) {
      mockDrawn.push(element)
    }
    async arrayBuffer() {
      return mockPng
    }
  },
}))
beforeAll(async () => {
  const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } })
    .png()
    .toBuffer()
  mockPng = Uint8Array.from(png).buffer
})

const seed = seedDocuments()
const settings = seed.find((doc) => doc._id === 'siteSettings')!
const study = seed.find((doc) => doc._type === 'caseStudy')!

test("a case study's card drawn from encoded content is the card of the clean content", async () => {
  const props: OgCardProps = {
    brandName: settings.brandName as string,
    eyebrow: 'Case Study',
    title: study.detailTitle as string,
    host: new URL(settings.siteUrl as string).host,
  }
  const encoded = {
    ...encode({ brandName: props.brandName }, settings),
    ...encode({ title: props.title }, study),
  }
  expect(hasStega(JSON.stringify(encoded))).toBe(true)
  mockDrawn.length = 0
  await ogCardImage(props)
  await ogCardImage({ ...props, ...encoded })
  const [clean, dirty] = mockDrawn.map((element) => renderToStaticMarkup(element))
  expect(hasStega(dirty!)).toBe(false)
  expect(dirty).toBe(clean)
})
