/** Where the e2e server (playwright.config.ts) keeps its builds and contact entries. */
import path from 'node:path'

export const E2E_SITE_DIR = path.resolve('.site-e2e')
export const E2E_INBOX_FILE = path.join(E2E_SITE_DIR, 'contact-inbox.ndjson')
