'use client'

import { ToastContainer } from 'react-toastify'

/** With the container, so the form's notices cost one chunk, loaded once. */
export { toast } from 'react-toastify'

/** The contact form's notices (react-toastify, a third of the home page's script), loaded by ContactForm on first focus. */
export default function ContactNotices() {
  return <ToastContainer position="bottom-right" newestOnTop theme="light" />
}
