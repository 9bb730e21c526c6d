/**
 * The site's document (`<html>` and `<body>`): fixed navigation, the page, the footer,
 * and in an editor's preview the banner and Presentation's visual editing. Shared by the
 * site's root layout (`app/(site)/layout.tsx`) and the 404 page (`app/global-not-found.tsx`),
 * which Next renders without any layout. The Studio has a root layout of its own
 * (`app/(studio)/layout.tsx`): nothing of this is under it.
 */
import type { Metadata } from 'next'
import { createElement, type ReactNode } from 'react'
import { stegaClean } from 'next-sanity'
import { SiteFooter } from '@/components/layout/SiteFooter'
import { SiteHeader } from '@/components/layout/SiteHeader'
import { HydratedMark } from '@/components/layout/HydratedMark'
import { DeferredSections } from '@/components/layout/DeferredSections'
import { SplashScreen } from '@/components/layout/SplashScreen'
import { PreviewBanner } from '@/components/layout/PreviewBanner'
import { PreviewVisualEditing } from '@/components/preview/PreviewVisualEditing'
import { JsonLd } from '@/components/seo/JsonLd'
import { BOOT_SCRIPT } from '@/lib/splash-boot-script'
import { studioUrlFromEnv } from '@/lib/studio'
import { getPreviewDrafts, getPreviewProblems, getSiteSettings } from '@/lib/content'
import { pageSource } from '@/lib/content/page-source'
import { previewScriptNonce } from '@/lib/preview-render'
import { OG_IMAGE_SIZE, ogImagePath, organizationJsonLd, siteTitle } from '@/lib/seo'
import { jakarta, jakartaExtended } from './fonts'
import './globals.css'

/**
 * The metadata every page starts from: title template, description, share card.
 * Pages without metadata of their own (the 404 page) share the home page's card.
 */
export async function siteMetadata(): Promise<Metadata> {
  const settings = stegaClean(await getSiteSettings(await pageSource()))
  const images = [{ url: ogImagePath('home'), ...OG_IMAGE_SIZE, alt: siteTitle(settings), type: 'image/png' }]
  return {
    metadataBase: new URL(settings.siteUrl),
    title: { default: siteTitle(settings), template: `%s | ${settings.brandName}` },
    description: settings.description,
    openGraph: { siteName: settings.brandName, type: 'website', locale: 'en_GB', images },
    twitter: { card: 'summary_large_image', images },
  }
}

/**
 * The document around a page of the site.
 * @param children the page's content, inside `<main id="main">`
 */
export async function SiteDocument({ children }: { children: ReactNode }) {
  const source = await pageSource()
  const settings = await getSiteSettings(source)
  // An editor's preview render is marked on its source (lib/content/page-source.ts).
  const preview = source.preview === true
  const nonce = await previewScriptNonce()
  return (
    // The boot script sets data-splash on <html> before hydration, hence suppressHydrationWarning.
    <html lang="en-GB" className={`${jakarta.variable} ${jakartaExtended.variable}`} suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: BOOT_SCRIPT }} />
      </head>
      {createElement(
        'body',
        { className: 'flex min-h-dvh flex-col' },
        <JsonLd data={organizationJsonLd(settings)} />,
        <SplashScreen />,
        <HydratedMark />,
        <DeferredSections />,
        <a
          href="#main"
          className="sr-only z-50 rounded-ui bg-accent px-4 py-3 font-semibold text-surface focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
        >
          Skip to content
        </a>,
        <SiteHeader brandName={settings.brandName} />,
        <main id="main" className="flex-1 pt-16">
          {children}
        </main>,
        <SiteFooter
          brandName={settings.brandName}
          description={settings.description}
          email={settings.contactEmail}
          phone={settings.contactPhone}
        />,
        // Spread, not `{preview && …}`: a visitor's page payload holds no trace of them.
        ...(preview
          ? [
              <PreviewBanner
                key="preview"
                renderedAt={new Date().toISOString()}
                drafts={await getPreviewDrafts(source)}
                problems={await getPreviewProblems(source)}
                studioUrl={studioUrlFromEnv()}
              />,
              <PreviewVisualEditing key="visual-editing" />,
            ]
          : []),
      )}
    </html>
  )
}
