/**
 * The preview's content images, before Next: `/preview-media/<assetId>`, a local dataset image no build
 * copied (its rules: SECURITY.md), and `/media/<file>` from public/ as it is now (Next lists it once).
 */
import { open } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import PQueue from 'p-queue'
import { MEDIA_HEADERS } from '../../site-build/headers.ts'
import { assetFileOf, ContentError } from '../../lib/content/build-rules.ts'
import {
  assetHash,
  imageMimeType,
  isImageAssetId,
  isMediaFileName,
  MEDIA_URL_DIR,
  PREVIEW_MEDIA_URL_DIR,
} from '../../lib/content/image.ts'
import type { MediaAsset } from '../../lib/content/media-sync.ts'
import { mediaAssetsQuery } from '../../lib/content/queries.ts'
import { runQuery, type ContentSource } from '../../lib/content/source.ts'
import { sanitiseSvg } from '../../lib/content/svg-sanitiser.ts'

/** A phone's photo is 3 to 12 MB; the file is read whole to check its hash. */
export const PREVIEW_MEDIA_MAX_BYTES = 32 * 1024 * 1024

/** Beyond `queue` waiting, 503: a page asks for its images at once. */
const READS = { concurrency: 2, queue: 32 }

export type PreviewMediaOptions = {
  /** Published: asset documents are never drafts. */
  source: ContentSource
  publicDir: string
  /** Why an image was refused, for the log (the editor gets a plain 404). */
  onError: (path: string, error: unknown) => void
  maxBytes?: number
}

export class PreviewMedia {
  #options: PreviewMediaOptions
  #reads = new PQueue({ concurrency: READS.concurrency })

  constructor(options: PreviewMediaOptions) {
    this.#options = options
  }

  /** Answers `/preview-media/…` and `/media/…`; false for any other path. Never throws. */
  async answer(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const pathname = (req.url ?? '/').split('?')[0] ?? '/'
    const inFolder = (folder: string) => pathname.startsWith(`${folder}/`)
    if (!inFolder(PREVIEW_MEDIA_URL_DIR) && !inFolder(MEDIA_URL_DIR)) return false
    const plain = (status: number, text: string, headers: Record<string, string> = {}) => {
      if (res.headersSent) return void res.destroy()
      res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers }).end(text)
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      plain(405, 'Method not allowed', { Allow: 'GET, HEAD' })
      return true
    }
    if (this.#reads.size >= READS.queue) {
      plain(503, 'The preview is busy', { 'Retry-After': '5' })
      return true
    }
    try {
      await this.#reads.add(() =>
        inFolder(PREVIEW_MEDIA_URL_DIR)
          ? this.#datasetImage(pathname.slice(PREVIEW_MEDIA_URL_DIR.length + 1), req, res)
          : this.#copiedImage(pathname.slice(MEDIA_URL_DIR.length + 1), req, res),
      )
    } catch (error) {
      this.#options.onError(pathname, error)
      plain(404, 'Not found')
    }
    return true
  }

  /** Only when the file's sha1 is the one the id carries, so the address names the bytes. */
  async #datasetImage(assetId: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Exactly an asset id: no encoding, separator or dot segment gets this far.
    if (!isImageAssetId(assetId)) throw new Error(`"${assetId}" is not a Sanity image asset id`)
    const { source, maxBytes = PREVIEW_MEDIA_MAX_BYTES } = this.#options
    if (source.kind !== 'local') throw new Error('the Content Lake serves its images from its CDN')
    const extension = assetId.slice(assetId.lastIndexOf('-') + 1)
    const type = imageMimeType(extension)
    if (!type) throw new Error(`"${assetId}" is not a kind of image the preview sends`)
    const [asset] = (await runQuery(mediaAssetsQuery, { referenced: [assetId] }, source)) as MediaAsset[]
    if (!asset) throw new Error(`the dataset has no asset "${assetId}"`)
    const name = asset.originalFilename
    if (!name || path.basename(name) !== name || name === '..' || name.includes('\0'))
      throw new ContentError(assetId, 'originalFilename', 'must be a plain file name, not a path')
    const hash = assetHash(assetId)
    if (asset.sha1hash && asset.sha1hash !== hash)
      throw new ContentError(assetId, 'sha1hash', `is not the hash its _id names (${hash})`)
    // assetFileOf words any failure to read as a missing file; the log gets the real reason.
    let unread: unknown
    const bytes = await assetFileOf(
      { ...asset, sha1hash: hash },
      path.join(path.dirname(source.file), 'images'),
      (file) =>
        readAtMost(file, maxBytes).catch((error: unknown) => {
          unread = error
          throw error
        }),
    ).catch((error: unknown) => {
      throw unread ?? error
    })
    // As the build will write it: the editor sees what visitors will get.
    const sent = extension === 'svg' ? await sanitiseSvg(bytes, assetId) : bytes
    res.writeHead(200, imageHeaders(type, sent.length))
    res.end(req.method === 'HEAD' ? undefined : sent)
  }

  async #copiedImage(name: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!isMediaFileName(name)) throw new Error(`"${name}" is not a name the media step writes`)
    const type = imageMimeType(name.slice(name.lastIndexOf('.') + 1))
    if (!type) throw new Error(`"${name}" is not a kind of image`)
    const file = path.join(this.#options.publicDir, MEDIA_URL_DIR, name)
    const handle = await open(file)
    try {
      const stats = await handle.stat()
      if (!stats.isFile()) throw new Error(`${file} is not a file`)
      res.writeHead(200, imageHeaders(type, stats.size))
      if (req.method === 'HEAD') return void res.end()
      await pipeline(handle.createReadStream({ autoClose: false }), res)
    } finally {
      await handle.close()
    }
  }
}

const imageHeaders = (type: string, length: number) => ({
  ...MEDIA_HEADERS,
  'Content-Type': type,
  'Content-Length': String(length),
})

/** @throws Error unless `file` is a regular file of at most `maxBytes` */
async function readAtMost(file: string, maxBytes: number): Promise<Buffer> {
  const handle = await open(file)
  try {
    const stats = await handle.stat()
    if (!stats.isFile()) throw new Error(`${file} is not a file`)
    if (stats.size > maxBytes)
      throw new Error(`${file} is ${stats.size} bytes, more than the ${maxBytes} the preview sends`)
    return await handle.readFile()
  } finally {
    await handle.close()
  }
}
