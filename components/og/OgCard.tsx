import { readFile } from 'node:fs/promises'
import path from 'node:path'
import sharp from 'sharp'
import { ImageResponse } from 'next/og'
import { stegaClean } from 'next-sanity'
import { OG_IMAGE_SIZE } from '@/lib/seo'

/** What one card shows: brand, a small label, the page's title, and optionally a content image. */
export type OgCardProps = {
  brandName: string
  eyebrow: string
  title: string
  /** Shown at the foot of the card, e.g. 'www.elevatelocal.co.uk'. */
  host: string
  /** A content image under public/, e.g. '/media/<sha1>-1200x800.svg' (SVG or PNG). */
  imageSrc?: string
}

// Design tokens of app/globals.css.
const INK = '#0b0f19'
const PAPER = '#f7f6f2'
const ACCENT = '#4f46e5'
const MUTED = '#a3a8b8'

/** Plus Jakarta Sans at two static weights (scripts/og-fonts.py): satori reads no WOFF2 nor variable axes. */
async function fonts() {
  const file = (name: string) => readFile(path.join(process.cwd(), 'assets/og', name))
  const [medium, extraBold] = await Promise.all([
    file('PlusJakartaSans-Medium.ttf'),
    file('PlusJakartaSans-ExtraBold.ttf'),
  ])
  return [
    { name: 'Jakarta', data: medium, weight: 500 as const, style: 'normal' as const },
    { name: 'Jakarta', data: extraBold, weight: 800 as const, style: 'normal' as const },
  ]
}

/** app/icon.svg's mark (an 'E' of bars on the accent square), 44 px. */
function BrandMark() {
  const unit = 44 / 64
  const bars: [number, number, number, number][] = [
    [16, 14, 32, 8],
    [16, 28, 24, 8],
    [16, 42, 32, 8],
    [16, 14, 8, 36],
  ]
  return (
    <div
      style={{
        display: 'flex',
        position: 'relative',
        width: 44,
        height: 44,
        borderRadius: 10,
        background: ACCENT,
      }}
    >
      {bars.map(([left, top, width, height]) => (
        <div
          key={`${left}-${top}-${width}`}
          style={{
            position: 'absolute',
            left: left * unit,
            top: top * unit,
            width: width * unit,
            height: height * unit,
            borderRadius: 2,
            background: PAPER,
          }}
        />
      ))}
    </div>
  )
}

/** A file under public/ as a data URL satori can draw; WebP goes over as JPEG, which satori reads. */
async function dataUrl(src: string): Promise<string> {
  const file = await readFile(path.join(process.cwd(), 'public', src))
  if (src.endsWith('.webp'))
    return `data:image/jpeg;base64,${(await sharp(file).jpeg({ quality: 85 }).toBuffer()).toString('base64')}`
  const type = src.endsWith('.svg') ? 'image/svg+xml' : src.endsWith('.png') ? 'image/png' : 'image/jpeg'
  return `data:${type};base64,${file.toString('base64')}`
}

/** Font size for the title: long titles step down so they keep to three lines. */
function titleSize(title: string, withImage: boolean): number {
  const room = withImage ? 1 : 1.45
  if (title.length > 60 * room) return 50
  if (title.length > 36 * room) return 60
  return 72
}

/**
 * The share card as a 1200x630 palette PNG (150 kB -> 45 kB with a photo), props cleaned of stega.
 * @returns a Response with the PNG (image/png)
 */
export async function ogCardImage(props: OgCardProps): Promise<Response> {
  const drawn = await (await drawCard(stegaClean(props))).arrayBuffer()
  const png = await sharp(Buffer.from(drawn)).png({ palette: true, quality: 90, effort: 10 }).toBuffer()
  return new Response(new Uint8Array(png), { headers: { 'content-type': 'image/png' } })
}

async function drawCard({ brandName, eyebrow, title, host, imageSrc }: OgCardProps) {
  const image = imageSrc ? await dataUrl(imageSrc) : null
  return new ImageResponse(
    <div
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        position: 'relative',
        background: INK,
        fontFamily: 'Jakarta',
        color: PAPER,
        padding: 64,
      }}
    >
      {/* A soft accent glow costs ~25 kB of PNG: only on cards without an image, to stay under 100 kB. */}
      {image ? null : (
        <div
          style={{
            position: 'absolute',
            right: -200,
            top: -240,
            width: 620,
            height: 620,
            display: 'flex',
            backgroundImage: 'radial-gradient(circle, rgba(79,70,229,0.5) 0%, rgba(79,70,229,0) 70%)',
          }}
        />
      )}
      {[560, 400, 240].map((diameter) => (
        <div
          key={diameter}
          style={{
            position: 'absolute',
            right: 90 - diameter / 2,
            top: 70 - diameter / 2,
            width: diameter,
            height: diameter,
            borderRadius: diameter / 2,
            border: '2px solid rgba(165,180,252,0.12)',
          }}
        />
      ))}
      <div style={{ position: 'absolute', left: 0, top: 0, bottom: 0, width: 10, background: ACCENT }} />
      <div style={{ display: 'flex', flexDirection: 'column', flex: 1, justifyContent: 'space-between' }}>
        <div style={{ display: 'flex', alignItems: 'center' }}>
          <BrandMark />
          <div style={{ marginLeft: 16, fontSize: 28, fontWeight: 800, letterSpacing: -0.5 }}>
            {brandName}
          </div>
        </div>
        <div style={{ display: 'flex', flexDirection: 'column', paddingRight: image ? 40 : 120 }}>
          <div
            style={{
              fontSize: 22,
              fontWeight: 800,
              letterSpacing: 3,
              textTransform: 'uppercase',
              color: '#a5b4fc',
              marginBottom: 20,
            }}
          >
            {eyebrow}
          </div>
          <div
            style={{
              fontSize: titleSize(title, Boolean(image)),
              fontWeight: 800,
              lineHeight: 1.08,
              letterSpacing: -1.5,
            }}
          >
            {title}
          </div>
        </div>
        <div style={{ display: 'flex', alignItems: 'center', fontSize: 22, fontWeight: 500, color: MUTED }}>
          <div style={{ width: 36, height: 4, borderRadius: 2, background: ACCENT, marginRight: 16 }} />
          {host}
        </div>
      </div>
      {image ? (
        <div
          style={{
            display: 'flex',
            alignSelf: 'center',
            width: 444,
            height: 296,
            borderRadius: 20,
            overflow: 'hidden',
            // A border, not a blurred shadow: soft shadows cost tens of kB of PNG.
            border: '2px solid rgba(247,246,242,0.16)',
          }}
        >
          {/* eslint-disable-next-line @next/next/no-img-element -- satori draws <img>, not next/image */}
          <img src={image} width={444} height={296} alt="" style={{ objectFit: 'cover' }} />
        </div>
      ) : null}
    </div>,
    { ...OG_IMAGE_SIZE, fonts: await fonts() },
  )
}
