import { Section } from '@/components/ui/Section'

/**
 * Home section 6 (spec §2): FAQs whose answers show on hover. Keyboard users
 * get the same by focus, and the answers are in the HTML for everyone (screen
 * readers, search engines, touch screens via tap-to-focus).
 */
export function FaqSection({
  intro,
  faqs,
}: {
  intro: string
  faqs: { _id: string; question: string; answer: string }[]
}) {
  return (
    <Section id="faq" eyebrow="Questions" title="FAQs" intro={intro}>
      <dl className="grid gap-5 md:grid-cols-2">
        {faqs.map((faq) => (
          <div
            key={faq._id}
            tabIndex={0}
            className="group rounded-ui border border-line bg-surface p-7 shadow-soft transition-colors duration-200 hover:border-accent focus:border-accent"
          >
            <dt className="flex items-start justify-between gap-4 text-lg font-bold">
              {faq.question}
              <span
                aria-hidden="true"
                className="text-accent transition-transform duration-200 group-hover:rotate-45 group-focus:rotate-45"
              >
                +
              </span>
            </dt>
            <dd className="grid grid-rows-[0fr] text-muted transition-[grid-template-rows] duration-300 ease-out group-hover:grid-rows-[1fr] group-focus:grid-rows-[1fr]">
              <span className="overflow-hidden">
                <span className="block pt-3">{faq.answer}</span>
              </span>
            </dd>
          </div>
        ))}
      </dl>
    </Section>
  )
}
