import { stegaClean } from 'next-sanity'
import { Section } from '@/components/ui/Section'
import { ContactForm } from './ContactForm'
import { telHref } from '@/lib/text'

/**
 * Home section 8 (spec §2): the 'Get In Touch' contact form, posting JSON to
 * the configured webhook, plus the direct e-mail and phone.
 * The e-mail and phone links and the webhook are cleaned (stega: an address is an attribute,
 * never an overlay, and an encoded one breaks; the form would post to it), the shown e-mail
 * and phone keep theirs. The webhook is cleaned here, on the server, so the form's client
 * code stays as it is.
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
            <a href={`mailto:${stegaClean(email)}`} className="font-semibold break-all hover:text-accent">
              {email}
            </a>
          </li>
          <li>
            <span className="eyebrow block text-muted">Phone</span>
            <a href={telHref(stegaClean(phone))} className="font-semibold hover:text-accent">
              {phone}
            </a>
          </li>
        </ul>
        <ContactForm webhookUrl={stegaClean(webhookUrl)} />
      </div>
    </Section>
  )
}
