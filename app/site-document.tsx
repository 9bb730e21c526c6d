/** The site's `<html>`, for its root layout and the 404 page (which Next renders without a layout). */
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

/** The metadata every page starts from: title template, description, the home page's share card. */
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

/** The document around a page: header, `<main id="main">`, footer, and in a preview the banner and visual editing. */
export async function SiteDocument({ children }: { children: ReactNode }) {
  const source = await pageSource()
  const settings = await getSiteSettings(source)
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
        // After the content: crawlers read it anywhere, and it would delay the first paint's bytes.
        <JsonLd data={organizationJsonLd(settings)} />,
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
