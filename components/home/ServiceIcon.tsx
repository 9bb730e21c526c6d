/** The icon names a service document may carry (schema type `service`). */
export type ServiceIconName = 'website' | 'automation' | 'integrations' | 'crm' | 'chatbot' | 'voice'

const paths: Record<ServiceIconName, string> = {
  website: 'M3 5h18v14H3zM3 9h18M7 7h.01M10 7h.01',
  automation: 'M13 2L4 14h7l-1 8 9-12h-7l1-8z',
  integrations: 'M8 7h4a4 4 0 010 8H8M16 17h-4a4 4 0 010-8h4M2 11h4M18 11h4',
  crm: 'M16 19v-1a4 4 0 00-4-4H7a4 4 0 00-4 4v1M9.5 10a3 3 0 100-6 3 3 0 000 6zM21 19v-1a4 4 0 00-3-3.9M16 4.1a3 3 0 010 5.8',
  chatbot: 'M4 5h16v11H9l-5 4V5zM9 10h.01M12 10h.01M15 10h.01',
  voice: 'M12 3a3 3 0 00-3 3v6a3 3 0 006 0V6a3 3 0 00-3-3zM5 11a7 7 0 0014 0M12 18v3',
}

/**
 * A service's line icon, drawn inline (no request).
 * @param name one of the schema's icon options
 */
export function ServiceIcon({ name }: { name: ServiceIconName }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="size-6"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={paths[name]} />
    </svg>
  )
}
