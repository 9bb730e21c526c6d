/**
 * Types for Next's own copy of the `compression` middleware (it ships none), which a
 * test wraps a response with as Next does (tests/unit/server-preview-render-failure.test.ts).
 */
declare module 'next/dist/compiled/compression' {
  import type { IncomingMessage, ServerResponse } from 'node:http'
  export default function compression(): (req: IncomingMessage, res: ServerResponse, next: () => void) => void
}
