/**
 * Reads an image's pixel size the way the Sanity stand-in needs it: SVG from the
 * root element's `width`/`height` attributes (plain numbers or px), else its
 * `viewBox` (what Sanity reports for an SVG without explicit size); PNG from the
 * IHDR chunk. Other formats are out of the stand-in's scope.
 */
export type ImageSize = { width: number; height: number; extension: 'svg' | 'png'; mimeType: string }

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/**
 * @param bytes the uploaded file
 * @returns its size and format, or null when it is neither a sized SVG nor a PNG
 */
export function imageSize(bytes: Buffer): ImageSize | null {
  if (bytes.length >= 24 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) {
    return {
      width: bytes.readUInt32BE(16),
      height: bytes.readUInt32BE(20),
      extension: 'png',
      mimeType: 'image/png',
    }
  }
  const root = /<svg\b[^>]*>/i.exec(bytes.toString('utf8', 0, Math.min(bytes.length, 4096)))?.[0]
  if (!root) return null
  const attribute = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(root)?.[1]
  const pixels = (value: string | undefined) =>
    value && /^\s*[\d.]+\s*(px)?\s*$/.test(value) ? Math.round(parseFloat(value)) : undefined
  const viewBox = attribute('viewBox')
    ?.trim()
    .split(/[\s,]+/)
    .map(Number)
  const width = pixels(attribute('width')) ?? (viewBox?.length === 4 ? Math.round(viewBox[2]!) : undefined)
  const height = pixels(attribute('height')) ?? (viewBox?.length === 4 ? Math.round(viewBox[3]!) : undefined)
  if (!width || !height) return null
  return { width, height, extension: 'svg', mimeType: 'image/svg+xml' }
}
