'use client'

import { TextLink } from '@/components/ui/TextLink'
import { useEffect, useSyncExternalStore } from 'react'
import { CaseStudyNotFound } from '@/components/case-studies/CaseStudyNotFound'

const noSubscription = () => () => {}
const browserPath = () => window.location.pathname
const noPathOnServer = () => null

/**
 * The 404 page's body (spec §2, §8). A static host serves one 404.html for
 * every unknown path, so the path is read in the browser: it is logged to the
 * console, and an unknown /case-studies/{id} says 'Case study not found.'.
 */
export function NotFoundMessage() {
  const path = useSyncExternalStore(noSubscription, browserPath, noPathOnServer)
  useEffect(() => {
    if (path) console.error('404 Error: User attempted to access non-existent route:', path)
  }, [path])

  if (path && /^\/case-studies\/.+/.test(path)) return <CaseStudyNotFound />
  return (
    <div className="content-width py-24 text-center md:py-32">
      <h1 className="display text-4xl text-accent">404</h1>
      <p className="mt-4 text-xl font-semibold">Oops! Page not found</p>
      <TextLink href="/" className="mt-8">
        Return to Home
      </TextLink>
    </div>
  )
}
