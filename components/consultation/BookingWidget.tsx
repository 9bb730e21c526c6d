import Script from 'next/script'
import { stegaClean } from 'next-sanity'

/** Minimum height of the booking widget in px (spec §9). */
const BOOKING_MIN_HEIGHT = 800

/**
 * The third-party booking widget (spec §2, §7): an iframe at least 800 px high,
 * plus the widget's form embed script when one is configured. Both addresses are cleaned
 * (stega: a src is never an overlay, and an encoded URL loads another page or script).
 * @param url the booking calendar URL from site settings
 * @param scriptUrl the widget's embed script URL, optional
 */
export function BookingWidget({ url, scriptUrl }: { url: string; scriptUrl?: string }) {
  return (
    <div className="overflow-hidden rounded-ui border border-line bg-surface shadow-soft">
      <iframe
        src={stegaClean(url)}
        title="Book a free consultation"
        className="block w-full"
        style={{ minHeight: BOOKING_MIN_HEIGHT, height: BOOKING_MIN_HEIGHT }}
      />
      {scriptUrl && <Script src={stegaClean(scriptUrl)} strategy="lazyOnload" />}
    </div>
  )
}
