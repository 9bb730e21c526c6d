/**
 * @jest-environment node
 */
import path from 'node:path'
import { toImportDocuments } from '@/lib/content/importable'
import { seedDocuments } from './helpers/dataset'

const imagesDir = path.resolve('studio/seed/images')

describe('toImportDocuments (the seed script for a real project)', () => {
  test('drops asset documents and turns image references into file uploads', () => {
    const seed = seedDocuments()
    const imported = toImportDocuments(seed, imagesDir)
    expect(imported.some((doc) => doc._type === 'sanity.imageAsset')).toBe(false)
    expect(imported).toHaveLength(seed.filter((doc) => doc._type !== 'sanity.imageAsset').length)

    const settings = imported.find((doc) => doc._id === 'siteSettings') as unknown as {
      heroImage: Record<string, unknown>
    }
    expect(settings.heroImage.asset).toBeUndefined()
    expect(settings.heroImage._sanityAsset).toBe(`image@file://${imagesDir}/hero-preview.svg`)
    expect(settings.heroImage.alt).toEqual(expect.any(String))
    expect(JSON.stringify(imported)).not.toContain('"_ref":"image-')
  })

  test('names the document whose image points at a missing asset', () => {
    const broken = seedDocuments().filter(
      (doc) => doc._type !== 'sanity.imageAsset' || !doc.originalFilename?.toString().startsWith('hero'),
    )
    expect(() => toImportDocuments(broken, imagesDir)).toThrow(
      /document "siteSettings" references missing asset "image-/,
    )
  })
})
