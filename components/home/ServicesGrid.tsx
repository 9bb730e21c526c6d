import { stegaClean } from 'next-sanity'
import { Section } from '@/components/ui/Section'
import { ConsultationButton } from '@/components/ui/ButtonLink'
import { ServiceIcon, type ServiceIconName } from './ServiceIcon'
import { StaggerList } from '@/components/ui/Stagger'

/**
 * Home section 3 (spec §2): the six service cards and a consultation button.
 * @param services `{_id, icon, title, description}` in editors' order; the icon name is
 *   cleaned (stega: it picks a drawing by name, and an encoded name finds none)
 */
export function ServicesGrid({
  intro,
  services,
}: {
  intro: string
  services: { _id: string; icon: ServiceIconName; title: string; description: string }[]
}) {
  return (
    <Section id="services" eyebrow="Services" title="How We Can Help You" intro={intro} tone="surface">
      <StaggerList className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
        {services.map((service) => (
          <li key={service._id} className="rounded-ui border border-line bg-paper p-7">
            <span className="inline-flex size-12 items-center justify-center rounded-ui bg-accent-soft text-accent">
              <ServiceIcon name={stegaClean(service.icon)} />
            </span>
            <h3 className="mt-5 text-xl font-bold">{service.title}</h3>
            <p className="mt-2 text-muted">{service.description}</p>
          </li>
        ))}
      </StaggerList>
      <ConsultationButton className="mt-10" />
    </Section>
  )
}
