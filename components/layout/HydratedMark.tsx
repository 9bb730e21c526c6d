'use client'

import { useEffect } from 'react'

export const HYDRATED_ATTRIBUTE = 'data-hydrated'

/** Marks `<html data-hydrated>` once React has hydrated, so `.js-only` parts replace `.no-js-only` ones. */
export function HydratedMark() {
  useEffect(() => {
    document.documentElement.setAttribute(HYDRATED_ATTRIBUTE, '')
  }, [])
  return null
}
