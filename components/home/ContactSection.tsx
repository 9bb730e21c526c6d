import { Section } from '@/components/ui/Section'

const fieldClass =
  'mt-2 block min-h-12 w-full rounded-ui border border-line-strong bg-surface px-4 py-3 text-base text-ink focus:border-accent focus:outline-none focus-visible:outline-3 focus-visible:outline-accent'

/** The contact form's fields (spec §3 payload; §5: the first four are required). */
const fields = [
  { name: 'firstName', label: 'First name', type: 'text', autoComplete: 'given-name', required: true },
  { name: 'lastName', label: 'Last name', type: 'text', autoComplete: 'family-name', required: true },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email', required: true },
  { name: 'phone', label: 'Phone', type: 'tel', autoComplete: 'tel', required: true },
  { name: 'website', label: 'Website', type: 'text', autoComplete: 'url', required: false },
] as const

/**
 * Home section 8 (spec §2): the 'Get In Touch' contact form, posting JSON to
 * the configured webhook, plus the direct e-mail and phone.
 * @param webhookUrl site settings' contact webhook (https, or a path on this site)
 */
export function ContactSection({
  intro,
  email,
  phone,
  webhookUrl,
}: {
  intro: string
  email: string
  phone: string
  webhookUrl: string
}) {
  return (
    <Section id="contact" eyebrow="Contact Us" title="Get In Touch" intro={intro}>
      <div className="grid gap-10 lg:grid-cols-[1fr_2fr]">
        <ul className="space-y-4 text-lg">
          <li>
            <span className="eyebrow block text-muted">Email</span>
            <a href={`mailto:${email}`} className="font-semibold break-all hover:text-accent">
              {email}
            </a>
          </li>
          <li>
            <span className="eyebrow block text-muted">Phone</span>
            <a href={`tel:${phone.replace(/[^+\d]/g, '')}`} className="font-semibold hover:text-accent">
              {phone}
            </a>
          </li>
        </ul>
        <form
          method="post"
          action={webhookUrl}
          data-webhook={webhookUrl}
          className="grid gap-5 rounded-ui border border-line bg-surface p-6 shadow-soft sm:grid-cols-2 md:p-8"
        >
          {fields.map((field) => (
            <label
              key={field.name}
              className={`block font-semibold ${field.name === 'website' ? 'sm:col-span-2' : ''}`}
            >
              {field.label}
              {!field.required && <span className="font-normal text-muted"> (optional)</span>}
              <input
                name={field.name}
                type={field.type}
                inputMode={field.name === 'website' ? 'url' : undefined}
                autoComplete={field.autoComplete}
                required={field.required}
                className={fieldClass}
              />
            </label>
          ))}
          <label className="block font-semibold sm:col-span-2">
            What would you like to automate?
            <span className="font-normal text-muted"> (optional)</span>
            <textarea name="automation" rows={4} className={`${fieldClass} resize-y`} />
          </label>
          <button
            type="submit"
            className="min-h-12 rounded-ui bg-accent px-6 font-semibold text-surface transition-colors hover:bg-accent-strong disabled:opacity-60 sm:col-span-2 sm:justify-self-start"
          >
            Send Message
          </button>
        </form>
      </div>
    </Section>
  )
}
