'use client'

import { ToastContainer } from 'react-toastify'

/**
 * Where the contact form's notices appear (react-toastify's container, bottom right).
 * Not part of the page: ContactForm mounts it, and so fetches its code, when the
 * visitor first focuses a field of the form (at the latest on submit). react-toastify was about a third of the home page's
 * own script, and its container injects a stylesheet when it mounts: work that sat in
 * the hydration task of every visit.
 */
export default function ContactNotices() {
  return <ToastContainer position="bottom-right" newestOnTop theme="light" />
}
