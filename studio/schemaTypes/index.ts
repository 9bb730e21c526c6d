import { audienceCard } from './audienceCard.ts'
import { caseStudy } from './caseStudy.ts'
import { faq } from './faq.ts'
import { growthItem } from './growthItem.ts'
import { portfolioSite } from './portfolioSite.ts'
import { review } from './review.ts'
import { service } from './service.ts'
import { siteSettings } from './siteSettings.ts'

/** Every schema type of the dataset, one file each. */
export const schemaTypes = [
  siteSettings,
  service,
  audienceCard,
  growthItem,
  caseStudy,
  review,
  faq,
  portfolioSite,
]
