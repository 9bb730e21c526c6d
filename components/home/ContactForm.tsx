'use client'

import { lazy, Suspense, useState, type ComponentType, type FormEvent, type ReactNode } from 'react'
import { buttonStyles } from '@/components/ui/ButtonLink'
import { fieldClass } from '@/components/ui/formStyles'
import { loadOnce } from '@/lib/load-once'
import { contactPayload, HONEYPOT_FIELD, honeypotFilled, sendContact } from '@/lib/contact'

/** The visible fields (spec §3 payload; §5: the first four are required, no custom messages). */
const fields = [
  { name: 'firstName', label: 'First name', type: 'text', autoComplete: 'given-name', required: true },
  { name: 'lastName', label: 'Last name', type: 'text', autoComplete: 'family-name', required: true },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email', required: true },
  { name: 'phone', label: 'Phone', type: 'tel', autoComplete: 'tel', required: true },
  { name: 'website', label: 'Website', type: 'text', autoComplete: 'url', required: false },
] as const

/** The notices' chunk: container and toast together, so one chunk, loaded once. */
const loadNotices = loadOnce(() => import('./ContactNotices'))

/** A failed load gives no container, not a broken page. */
const ContactNotices = lazy((): Promise<{ default: ComponentType }> =>
  loadNotices().catch(() => ({ default: () => null })),
)

function Notice({ title, text }: { title: string; text: string }) {
  return (
    <div>
      <p className="font-bold">{title}</p>
      <p className="text-sm">{text}</p>
    </div>
  )
}

/** The 'Get In Touch' form (spec §2, §4, §7, §8), sending JSON to `webhookUrl`; notices load on first focus. */
export function ContactForm({ webhookUrl }: { webhookUrl: string }) {
  const [sending, setSending] = useState(false)
  const [noticesMounted, setNoticesMounted] = useState(false)
  const mountNotices = () => setNoticesMounted(true)

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    const data = new FormData(form)
    mountNotices()
    // A failed load (offline) costs the notice, never the form or what was typed.
    const toast = loadNotices().then(
      (module) => module.toast,
      () => null,
    )
    const notify = async (kind: 'success' | 'error', notice: ReactNode) => (await toast)?.[kind](notice)
    const succeeded = () => {
      form.reset()
      return notify('success', <Notice title="Message Sent!" text="We'll get back to you soon." />)
    }
    if (honeypotFilled(data)) return succeeded()
    setSending(true)
    const sent = await sendContact(webhookUrl, contactPayload(data))
    setSending(false)
    await (sent
      ? succeeded()
      : notify(
          'error',
          <Notice title="Error" text="There was a problem sending your message. Please try again." />,
        ))
  }

  return (
    <>
      <form
        method="post"
        action={webhookUrl}
        onSubmit={submit}
        onFocus={mountNotices}
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
        {/* Off-screen, not display:none, which some bots skip. */}
        <div aria-hidden="true" className="absolute -left-[10000px] top-auto h-px w-px overflow-hidden">
          <label>
            Fax
            <input name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
          </label>
        </div>
        <label className="block font-semibold sm:col-span-2">
          What would you like to automate?
          <span className="font-normal text-muted"> (optional)</span>
          <textarea name="automation" rows={4} className={`${fieldClass} resize-y`} />
        </label>
        <button
          type="submit"
          disabled={sending}
          className={`${buttonStyles.primary} disabled:cursor-wait disabled:opacity-70 sm:col-span-2 sm:justify-self-start`}
        >
          {sending ? 'Sending...' : 'Send Message'}
        </button>
      </form>
      {noticesMounted && (
        <Suspense fallback={null}>
          <ContactNotices />
        </Suspense>
      )}
    </>
  )
}
