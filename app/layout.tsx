import type { Metadata, Viewport } from 'next'
import { createElement, type ReactNode } from 'react'
import { SiteFooter } from '@/components/layout/SiteFooter'
import { SiteHeader } from '@/components/layout/SiteHeader'
import { HydratedMark } from '@/components/layout/HydratedMark'
import { DeferredSections } from '@/components/layout/DeferredSections'
import { SplashScreen } from '@/components/layout/SplashScreen'
import { BOOT_SCRIPT } from '@/lib/splash'
import { getPreviewDrafts, getSiteSettings } from '@/lib/content'
import { isPreviewPerspective, sourceFromEnv } from '@/lib/content/source'
import { PreviewBanner } from '@/components/layout/PreviewBanner'
import { OG_IMAGE_SIZE, ogImagePath, organizationJsonLd, siteTitle } from '@/lib/seo'
import { JsonLd } from '@/components/seo/JsonLd'
import { jakarta, jakartaExtended } from './fonts'
import './globals.css'

export async function generateMetadata(): Promise<Metadata> {
  const settings = await getSiteSettings()
  // Pages without metadata of their own (404, /studio) share the home page's card.
  const images = [{ url: ogImagePath('home'), ...OG_IMAGE_SIZE, alt: siteTitle(settings), type: 'image/png' }]
  return {
    metadataBase: new URL(settings.siteUrl),
    title: { default: siteTitle(settings), template: `%s | ${settings.brandName}` },
    description: settings.description,
    openGraph: { siteName: settings.brandName, type: 'website', locale: 'en_GB', images },
    twitter: { card: 'summary_large_image', images },
  }
}

export const viewport: Viewport = { themeColor: '#f7f6f2' }

/** Root layout: fixed navigation, the page, the footer. */
export default async function RootLayout({ children }: { children: ReactNode }) {
  const settings = await getSiteSettings()
  // Only a preview build (CONTENT_PERSPECTIVE=drafts or a release's id) carries the banner.
  const preview = isPreviewPerspective(sourceFromEnv().perspective)
  return (
    // The boot script sets data-splash on <html> before hydration, hence suppressHydrationWarning.
    <html lang="en-GB" className={`${jakarta.variable} ${jakartaExtended.variable}`} suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: BOOT_SCRIPT }} />
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
        // Spread, not `{preview && …}`: a published build's page payload holds no trace of it.
        ...(preview
          ? [
              <PreviewBanner
                key="preview"
                builtAt={new Date().toISOString()}
                drafts={await getPreviewDrafts()}
                studioUrl={process.env.SANITY_STUDIO_URL?.trim() || '/studio'}
              />,
            ]
          : []),
      )}
    </html>
  )
}
