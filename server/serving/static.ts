/**
 * Serves the live build as a static host would: clean URLs, 404.html, `.redirects.json`, precompressed
 * files, revalidation, Range and `_headers`; content images always with `MEDIA_HEADERS`.
 */
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { LRUCache } from 'lru-cache'
import type { Header } from '@netlify/headers-parser'
import * as output from '../../lib/build-output.ts'
import { BASE_HEADERS, MEDIA_HEADERS, REVALIDATE } from '../../site-build/headers.ts'
import { MEDIA_URL_DIR } from '../../lib/content/image.ts'
import type { BuildStore } from '../publishing/build-store.ts'
import { headersFor, loadHeaderRules } from './headers-file.ts'

type LoadedSite = { dir: string; index: output.SiteIndex; rules: readonly Header[] }
export type LiveSite = () => Promise<LoadedSite | null>

/** Whether the live build answers a URL path with one of its files (not a redirect, not 404). */
export async function isLiveFile(live: LiveSite, urlPath: string): Promise<boolean> {
  const site = await live()
  return site !== null && output.resolvePath(site.index, urlPath).kind === 'file'
}

/**
 * GET/HEAD of any path from the live build, 405 for other methods, and the live build's
 * `_headers` on every answer of the app (one source for this server and static hosts).
 * @returns the live build, each build loaded once (a build never changes after it went live)
 */
export async function staticRoutes(app: FastifyInstance, store: BuildStore): Promise<LiveSite> {
  const sites = new LRUCache<string, LoadedSite>({
    max: store.keep + 1,
    fetchMethod: async (dir) => ({
      dir,
      index: await output.indexSite(dir),
      rules: await loadHeaderRules(path.join(dir, '_headers')),
    }),
  })
  const live = async () => {
    const dir = await store.liveDir()
    return dir ? ((await sites.fetch(dir)) ?? null) : null
  }
  app.addHook('onRequest', async (request, reply) => {
    const site = await live()
    reply.headers(site ? headersFor(site.rules, request.url.split('?')[0] ?? '/') : BASE_HEADERS)
  })
  await app.register(fastifyStatic, {
    root: path.resolve('.'), // replaced per request by the live build's folder
    serve: false,
    preCompressed: true,
    cacheControl: false, // Cache-Control comes from _headers
    etag: true,
    lastModified: true,
    dotfiles: 'deny',
  })

  const sendPage = (reply: FastifyReply, site: LoadedSite, file: string, status = 200) =>
    reply
      .headers({
        'Cache-Control': REVALIDATE,
        ...headersFor(site.rules, output.urlPathOf(file)),
        ...(file.startsWith(`${MEDIA_URL_DIR.slice(1)}/`) && MEDIA_HEADERS),
      })
      .code(status)
      .sendFile(`/${file}`, site.dir)

  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    handler: async (request, reply) => {
      const site = await live()
      if (!site) return reply.code(503).header('Retry-After', '10').send({ error: 'no build is live yet' })
      const pathname = request.url.split('?')[0] ?? ''
      const resolution = output.resolvePath(site.index, pathname || '/')
      if (resolution.kind === 'redirect')
        // Not cached for good: a later build may give an old address back to a page of its own.
        return reply
          .header('Cache-Control', REVALIDATE)
          .redirect(`${resolution.location}${request.url.slice(pathname.length)}`, output.REDIRECT_STATUS)
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
  return live
}
