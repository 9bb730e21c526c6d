'use client'

import { ToastContainer } from 'react-toastify'

/** The contact form's notices (react-toastify, a third of the home page's script), loaded by ContactForm on first focus. */
export default function ContactNotices() {
  return <ToastContainer position="bottom-right" newestOnTop theme="light" />
}
