/**
 * A small local stand-in of Sanity's HTTP query endpoint
 * (`GET|POST /v{apiVersion}/data/query/{dataset}`), answering like the Content
 * Lake (`{ query, result, ms }`) by evaluating the query with groq-js over a
 * list of documents. Lets tests run the real `@sanity/client` path offline.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { evaluate, parse } from 'groq-js'

export type StandIn = { url: string; requests: string[]; close: () => Promise<void> }

function paramsFrom(search: URLSearchParams): Record<string, unknown> {
  const params: Record<string, unknown> = {}
  for (const [key, value] of search) if (key.startsWith('$')) params[key.slice(1)] = JSON.parse(value)
  return params
}

/** Starts the stand-in on a free loopback port over `documents`. */
export async function startSanityStandIn(documents: object[]): Promise<StandIn> {
  const requests: string[] = []
  const server = http.createServer(async (request, response) => {
    requests.push(`${request.method} ${request.url}`)
    const url = new URL(request.url ?? '/', 'http://localhost')
    if (!/^\/v[\w-]+\/data\/query\/[\w-]+$/.test(url.pathname)) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}')
      return
    }
    let query = url.searchParams.get('query') ?? ''
    let params = paramsFrom(url.searchParams)
    if (request.method === 'POST') {
      const chunks: Buffer[] = []
      for await (const chunk of request) chunks.push(chunk as Buffer)
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      query = body.query
      params = body.params ?? {}
    }
    try {
      const result = await (await evaluate(parse(query, { params }), { dataset: documents, params })).get()
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ query, result, ms: 1 }))
    } catch (error) {
      response
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { description: (error as Error).message, type: 'queryParseError' } }))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
