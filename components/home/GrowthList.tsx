/**
 * 'Less Grind. More Growth' (spec §2, §4): three collapsible items; one open at
 * a time and an open item closes again. Native exclusive disclosures
 * (`<details name>`) give exactly that, with keyboard support and no script.
 */
export function GrowthList({ items }: { items: { _id: string; title: string; content: string }[] }) {
  return (
    <div>
      <h3 className="text-xl font-bold">Less Grind. More Growth</h3>
      <div className="mt-5 divide-y divide-line rounded-ui border border-line bg-surface">
        {items.map((item) => (
          <details key={item._id} name="growth" className="group">
            <summary className="flex min-h-14 cursor-pointer list-none items-center justify-between gap-4 px-5 py-4 font-semibold [&::-webkit-details-marker]:hidden">
              {item.title}
              <span
                aria-hidden="true"
                className="text-xl leading-none text-accent transition-transform duration-200 group-open:rotate-45"
              >
                +
              </span>
            </summary>
            <p className="px-5 pb-5 text-muted">{item.content}</p>
          </details>
        ))}
      </div>
    </div>
  )
}
