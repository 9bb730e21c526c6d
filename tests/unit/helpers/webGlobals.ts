/**
 * Node's web globals that jest's jsdom environment leaves out, for component tests whose
 * components import `stegaClean` from next-sanity. Its root entry loads Sanity's client,
 * and jest resolves the client's `node` build (jest 30 always adds the `node` condition),
 * whose fetch (undici) reads these at import time. Next's own build is unaffected.
 * Import this module first, before any component: imports run in order.
 */
import { ReadableStream, TransformStream, WritableStream } from 'node:stream/web'
import { TextDecoder, TextEncoder } from 'node:util'
import { MessagePort } from 'node:worker_threads'

const missing = { TextDecoder, TextEncoder, ReadableStream, WritableStream, TransformStream, MessagePort }
for (const [name, value] of Object.entries(missing)) {
  if (!(name in globalThis))
    Object.defineProperty(globalThis, name, { value, writable: true, configurable: true })
}
