/**
 * Stand-ins for the few `sanity` exports that schema and Studio config files call
 * at load time. `defineType`, `defineField`, `defineArrayMember` and `defineConfig`
 * are identity functions in Sanity itself (sanity/lib/index.js), so schema objects
 * come out exactly as Sanity sees them, without loading the whole Studio (the real
 * package loads in jest too, for tests that need Sanity's behaviour, e.g.
 * tests/unit/studio/structure.test.ts, but takes seconds to transform). Use from a test with:
 *   jest.mock('sanity', () => jest.requireActual('./helpers/sanityStub').sanity)
 */
const same = <T>(value: T) => value

export const sanity = {
  defineType: same,
  defineField: same,
  defineArrayMember: same,
  defineConfig: same,
}
