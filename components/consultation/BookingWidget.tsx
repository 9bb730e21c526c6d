import { stegaClean } from 'next-sanity'
import { BookingScript } from './BookingScript'

/** Minimum height of the booking widget in px (spec §9). */
const BOOKING_MIN_HEIGHT = 800

/** The booking widget (spec §2, §7): its iframe and optional embed script, addresses cleaned of stega. */
export function BookingWidget({ url, scriptUrl }: { url: string; scriptUrl?: string }) {
  return (
    <div className="overflow-hidden rounded-ui border border-line bg-surface shadow-soft">
      <iframe
        src={stegaClean(url)}
        title="Book a free consultation"
        className="block w-full"
        style={{ minHeight: BOOKING_MIN_HEIGHT, height: BOOKING_MIN_HEIGHT }}
      />
      {scriptUrl && <BookingScript src={stegaClean(scriptUrl)} />}
    </div>
  )
}
