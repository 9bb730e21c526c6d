/**
 * Serves the live build as a static host would: clean URLs, 404.html, `.redirects.json`, precompressed
 * files, revalidation, Range and `_headers`; content images always with `MEDIA_HEADERS`.
 */
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { indexSite, REDIRECT_STATUS, resolvePath, urlPathOf, type SiteIndex } from '../../lib/build-output.ts'
import { BASE_HEADERS, MEDIA_HEADERS, REVALIDATE } from '../../site-build/headers.ts'
import { MEDIA_URL_DIR } from '../../lib/content/image.ts'
import type { BuildStore } from '../publishing/build-store.ts'
import { headersFor, loadHeaderRules, type HeaderRules } from './headers-file.ts'

type LoadedSite = { dir: string; index: SiteIndex; rules: HeaderRules }

/** Loads each build once, keyed by folder: a build never changes after it went live. */
export class SiteCache {
  #sites = new Map<string, Promise<LoadedSite>>()
  #store: BuildStore

  constructor(store: BuildStore) {
    this.#store = store
  }

  async live(): Promise<LoadedSite | null> {
    const dir = await this.#store.liveDir()
    if (!dir) return null
    let site = this.#sites.get(dir)
    if (!site) {
      site = (async () => ({
        dir,
        index: await indexSite(dir),
        rules: await loadHeaderRules(path.join(dir, '_headers')),
      }))()
      site.catch(() => this.#sites.delete(dir))
      this.#sites.set(dir, site)
      if (this.#sites.size > this.#store.keep + 1) {
        const kept = new Set((await this.#store.list()).map((build) => build.dir))
        for (const key of this.#sites.keys()) if (!kept.has(key)) this.#sites.delete(key)
      }
    }
    return site
  }
}

export function setHeaders(reply: FastifyReply, headers: Record<string, string>) {
  for (const [name, value] of Object.entries(headers)) reply.header(name, value)
}

/** The live build's `_headers` for a request URL (the base headers when nothing is live). */
export async function headersForRequest(cache: SiteCache, url: string): Promise<Record<string, string>> {
  const site = await cache.live()
  return site ? headersFor(site.rules, url.split('?')[0] ?? '/') : BASE_HEADERS
}

/** Whether the live build answers a request URL with one of its files (not a redirect, not 404). */
export async function isLiveFile(cache: SiteCache, url: string): Promise<boolean> {
  const site = await cache.live()
  return site !== null && resolvePath(site.index, url.split('?')[0] ?? '/').kind === 'file'
}

/** GET/HEAD of any path from the live build, 405 for other methods. */
export async function staticRoutes(app: FastifyInstance, { cache }: { cache: SiteCache }): Promise<void> {
  await app.register(fastifyStatic, {
    root: path.resolve('.'), // replaced per request by the live build's folder
    serve: false,
    preCompressed: true,
    cacheControl: false, // Cache-Control comes from _headers
    etag: true,
    lastModified: true,
    dotfiles: 'deny',
  })

  const sendPage = async (reply: FastifyReply, site: LoadedSite, file: string, status = 200) => {
    setHeaders(reply, {
      'Cache-Control': REVALIDATE,
      ...headersFor(site.rules, urlPathOf(file)),
      ...(file.startsWith(`${MEDIA_URL_DIR.slice(1)}/`) && MEDIA_HEADERS),
    })
    reply.code(status)
    return reply.sendFile(`/${file}`, site.dir)
  }

  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    handler: async (request, reply) => {
      const site = await cache.live()
      if (!site) return reply.code(503).header('Retry-After', '10').send({ error: 'no build is live yet' })
      const queryAt = request.url.indexOf('?')
      const pathname = queryAt < 0 ? request.url : request.url.slice(0, queryAt)
      const resolution = resolvePath(site.index, pathname || '/')
      if (resolution.kind === 'redirect') {
        // Not cached for good: a later build may give an old address back to a page of its own.
        reply.header('Cache-Control', REVALIDATE)
        const query = queryAt < 0 ? '' : request.url.slice(queryAt)
        return reply.redirect(`${resolution.location}${query}`, REDIRECT_STATUS)
      }
      if (resolution.kind === 'file') return sendPage(reply, site, resolution.file)
      if (site.index.has('404.html')) return sendPage(reply, site, '404.html', 404)
      return reply.code(404).type('text/plain').send('Not found')
    },
  })

  app.route({
    method: ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '/*',
    handler: async (_request, reply) =>
      reply.code(405).header('Allow', 'GET, HEAD').type('text/plain').send('Method Not Allowed'),
  })
}
