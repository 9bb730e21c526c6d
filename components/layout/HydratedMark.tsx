'use client'

import { useEffect } from 'react'

/** The attribute on `<html>` that says React has hydrated the page. */
export const HYDRATED_ATTRIBUTE = 'data-hydrated'

/**
 * Marks `<html data-hydrated>` once React has hydrated the page. Until then the page is
 * plain HTML: Next's scripts start only after the first paint (postbuild/defer-framework-scripts.ts),
 * so the navigation shows its native `<details>` menu, which works without JavaScript,
 * and swaps to the Headless UI menu here (globals.css: `.js-only`, `.no-js-only`).
 * Renders nothing.
 */
export function HydratedMark() {
  useEffect(() => {
    document.documentElement.setAttribute(HYDRATED_ATTRIBUTE, '')
  }, [])
  return null
}
