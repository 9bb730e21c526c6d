/**
 * Stand-ins for the few `sanity` and `sanity/structure` exports that schema and
 * Studio config files call at load time. `defineType`, `defineField`,
 * `defineArrayMember` and `defineConfig` are identity functions in Sanity itself
 * (sanity/lib/index.js), so schema objects come out exactly as Sanity sees them;
 * the real package is ESM with a deep ESM dependency tree that jest would have to
 * transform first. Use from a test with:
 *   jest.mock('sanity', () => jest.requireActual('./helpers/sanityStub').sanity)
 */
const same = <T>(value: T) => value

export const sanity = {
  defineType: same,
  defineField: same,
  defineArrayMember: same,
  defineConfig: same,
}

export const sanityStructure = {
  /** Records its options, so tests can reach the structure resolver it was given. */
  structureTool: (options: unknown) => ({ name: 'structure', options }),
}

/** A call recorded by the fake StructureBuilder: which builder, its arguments and chained calls. */
export type BuilderNode = {
  builder: string
  args: unknown[]
  calls: Record<string, unknown[]>
}

/**
 * A fake of Sanity's StructureBuilder (`S`) that records what a structure resolver
 * builds: `S.list().title('Content')` gives `{ builder: 'list', calls: { title: ['Content'] } }`.
 * Every method of every builder exists and chains, so the resolver runs unchanged.
 */
export function recordingStructureBuilder(): unknown {
  const node = (builder: string, args: unknown[]): BuilderNode => {
    const target: BuilderNode = { builder, args, calls: {} }
    const proxy: BuilderNode = new Proxy(target, {
      get: (record, key) =>
        typeof key === 'string' && !(key in record)
          ? (...callArgs: unknown[]) => {
              record.calls[key] = callArgs
              return proxy
            }
          : Reflect.get(record, key),
    })
    return proxy
  }
  return new Proxy(
    {},
    {
      get:
        (_, builder) =>
        (...args: unknown[]) =>
          node(String(builder), args),
    },
  )
}
