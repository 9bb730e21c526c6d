/** Types for Next's own copy of the `compression` middleware, which ships none. */
declare module 'next/dist/compiled/compression' {
  import type { IncomingMessage, ServerResponse } from 'node:http'
  export default function compression(): (req: IncomingMessage, res: ServerResponse, next: () => void) => void
}
