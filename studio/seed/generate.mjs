#!/usr/bin/env node
/**
 * Writes seed/dataset.ndjson (or `--out <file>`) from seed/copy.json and seed/images/; run it
 * after editing either. In the copy, `{"$image": file, alt}` is an image field and
 * `{"$blocks": keyPrefix, paragraphs}` a portable text.
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

const here = dirname(fileURLToPath(import.meta.url))
const imagesDir = join(here, 'images')
const outIndex = process.argv.indexOf('--out')
const outFile = outIndex > 0 ? resolve(process.argv[outIndex + 1]) : join(here, 'dataset.ndjson')
const copy = JSON.parse(readFileSync(join(here, 'copy.json'), 'utf8'))

const assets = new Map() // file name -> sanity.imageAsset document, as an export has it

for (const file of copy.images) {
  const bytes = readFileSync(join(imagesDir, file))
  const extension = file.split('.').pop()
  const mimeType = { svg: 'image/svg+xml', png: 'image/png' }[extension]
  if (!mimeType) throw new Error(`${file}: only .svg and .png images`)
  let width, height
  if (extension === 'svg') {
    const root = bytes.toString('utf8').match(/<svg\b[^>]*>/)?.[0] ?? ''
    width = Number(root.match(/\swidth="(\d+)"/)?.[1])
    height = Number(root.match(/\sheight="(\d+)"/)?.[1])
  } else ({ width, height } = await sharp(bytes).metadata())
  // The asset id carries the size, as Sanity's do.
  if (!width || !height) throw new Error(`${file}: no width and height (an <svg> needs both attributes)`)

  const sha1 = createHash('sha1').update(bytes).digest('hex')
  const dims = `${width}x${height}`
  assets.set(file, {
    _id: `image-${sha1}-${dims}-${extension}`,
    _type: 'sanity.imageAsset',
    assetId: sha1,
    sha1hash: sha1,
    extension,
    mimeType,
    originalFilename: file,
    size: bytes.length,
    path: `images/local0/production/${sha1}-${dims}.${extension}`,
    url: `https://cdn.sanity.io/images/local0/production/${sha1}-${dims}.${extension}`,
    metadata: {
      _type: 'sanity.imageMetadata',
      dimensions: {
        _type: 'sanity.imageDimensions',
        width,
        height,
        aspectRatio: Math.round((width / height) * 1e6) / 1e6,
      },
    },
  })
}

/** An image field value: `{$image, alt, ...}` -> a reference to the file's asset. */
function image({ $image: file, ...fields }) {
  const asset = assets.get(file)
  if (!asset) throw new Error(`no asset for ${file}: list it under "images" in copy.json`)
  return { _type: 'image', ...fields, asset: { _type: 'reference', _ref: asset._id } }
}

function blocks({ $blocks: prefix, paragraphs }) {
  return paragraphs.map((text, i) => ({
    _type: 'block',
    _key: `${prefix}${i + 1}`,
    style: 'normal',
    markDefs: [],
    children: [{ _type: 'span', _key: `${prefix}${i + 1}s`, text, marks: [] }],
  }))
}

const expand = (doc) =>
  Object.fromEntries(
    Object.entries(doc).map(([field, value]) => [
      field,
      value?.$image ? image(value) : value?.$blocks ? blocks(value) : value,
    ]),
  )

const ordered = (docs) => docs.map((doc, order) => ({ ...expand(doc), order }))

// Fixed timestamps keep the file (and the sitemap's <lastmod>) the same on every run.
const stamped = (doc) => ({
  ...doc,
  _createdAt: copy.createdAt,
  _updatedAt: copy.updatedAt[doc._id] ?? copy.defaultUpdatedAt,
})

const documents = [
  ...assets.values(),
  expand(copy.siteSettings),
  ...['services', 'audienceCards', 'growthItems', 'caseStudies', 'reviews', 'faqs', 'portfolioSites'].flatMap(
    (list) => ordered(copy[list]),
  ),
].map(stamped)

writeFileSync(outFile, documents.map((doc) => JSON.stringify(doc)).join('\n') + '\n')

const counts = {}
for (const doc of documents) counts[doc._type] = (counts[doc._type] ?? 0) + 1
console.log(`Wrote ${outFile}: ${documents.length} documents`)
for (const [type, n] of Object.entries(counts)) console.log(`  ${type.padEnd(20)} ${n}`)
