import { audienceCard } from './audienceCard'
import { caseStudy } from './caseStudy'
import { faq } from './faq'
import { growthItem } from './growthItem'
import { portfolioSite } from './portfolioSite'
import { review } from './review'
import { service } from './service'
import { siteSettings } from './siteSettings'

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
