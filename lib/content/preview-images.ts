/** Content images in an editor's preview: a draft's new upload the media step never copied comes from the dataset. */
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

const isPreviewSource = (source: ContentSource) =>
  Boolean(source.preview) || isPreviewPerspective(source.perspective)

/**
 * A validated image projection as a page of this source shows it: the build's copies, except in a
 * preview when `public/media/` lacks one of them (asked per render: a publish rewrites it), then
 * the dataset's own file (`toDatasetImage`).
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

/** The hosts besides the site a preview page of this source may load images from (its `img-src`). */
export function previewImageOrigins(source: ContentSource): string[] {
  return source.kind === 'sanity' ? [SANITY_IMAGE_CDN_ORIGIN] : []
}
