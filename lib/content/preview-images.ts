/**
 * Content images in an editor's preview. Visitors' pages (the export) show only the
 * copies the build's media step wrote into `public/media/` (image.ts `toContentImage`);
 * a preview renders drafts, whose images may be new uploads that step has never seen
 * (it runs on a publish, and `npm run build:preview` copies published content's only).
 * Such an image is taken from the dataset instead (image.ts `toDatasetImage`): the local
 * dataset's file through the preview process (server/preview-media.ts), or Sanity's
 * image CDN for the Content Lake, whose one host the preview's policy then allows
 * (`previewImageOrigins`).
 */
import { access } from 'node:fs/promises'
import path from 'node:path'
import {
  MEDIA_URL_DIR,
  mediaFileNames,
  SANITY_IMAGE_CDN_ORIGIN,
  toContentImage,
  toDatasetImage,
  type ContentImage,
  type ProjectedImage,
} from './image.ts'
import { isPreviewPerspective, type ContentSource } from './source.ts'

/** True for a source an editor's preview reads (draft mode, or a perspective other than `published`). */
const isPreviewSource = (source: ContentSource) =>
  Boolean(source.preview) || isPreviewPerspective(source.perspective)

/**
 * A validated image projection as a page of this source shows it: the build's copies
 * (`toContentImage`), always for a build, and in a preview whenever `public/media/`
 * holds every file of the asset; otherwise, in a preview only, the dataset's own file
 * (`toDatasetImage`). The folder is asked on every render: a publish writes (and
 * replaces) it while the preview runs.
 * @param image the `image{alt, hotspot{x, y}, asset->{...}}` projection, checked by `imageAsset`
 * @param publicDir the Next.js `public/` folder (default `./public`, where the preview process runs)
 */
export async function contentImageOf(
  image: ProjectedImage,
  source: ContentSource,
  publicDir = path.resolve('public'),
): Promise<ContentImage> {
  const copied = toContentImage(image)
  if (!isPreviewSource(source)) return copied
  const assetId = image!.asset!._id
  const present = await Promise.all(
    mediaFileNames(assetId).map((name) =>
      access(path.join(publicDir, MEDIA_URL_DIR, name)).then(
        () => true,
        () => false,
      ),
    ),
  )
  if (present.every(Boolean)) return copied
  return toDatasetImage(
    image,
    source.kind === 'local'
      ? { kind: 'local' }
      : { kind: 'sanity', projectId: source.projectId, dataset: source.dataset },
  )
}

/**
 * The hosts, besides the site, that a preview page of this source may load images from
 * (its Content-Security-Policy's `img-src`): Sanity's image CDN for the Content Lake,
 * none for the local dataset (its files come through the preview itself).
 */
export function previewImageOrigins(source: ContentSource): string[] {
  return source.kind === 'sanity' ? [SANITY_IMAGE_CDN_ORIGIN] : []
}
