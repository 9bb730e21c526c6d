import { stegaClean } from 'next-sanity'
import { Section } from '@/components/ui/Section'
import { ContactForm } from './ContactForm'
import { telHref } from '@/lib/text'

/** Home section 8 (spec §2): the contact form and the direct e-mail and phone; addresses cleaned of stega on the server. */
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
