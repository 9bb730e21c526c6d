export const metadata = { title: 'Empty page', description: 'Baseline for the benchmarks.' }

/** An (almost) empty page: one heading, so Lighthouse has a contentful paint to measure. */
export default function Page() {
  return (
    <main>
      <h1>Empty page</h1>
    </main>
  )
}
