'use client'

import { ToastContainer } from 'react-toastify'

/**
 * Where the contact form's notices appear (react-toastify's container, bottom right).
 * Loaded by ContactForm on the first submit, not with the page: react-toastify is
 * about a third of the home page's own script and injects its stylesheet when it
 * is evaluated, work that would otherwise sit in the hydration task of every visit.
 */
export default function ContactNotices() {
  return <ToastContainer position="bottom-right" newestOnTop theme="light" />
}
