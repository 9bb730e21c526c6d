/** Where the e2e server (playwright.config.ts) keeps its builds and contact entries. */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'

export const E2E_SITE_DIR = path.resolve('.site-e2e')
export const E2E_INBOX_FILE = path.join(E2E_SITE_DIR, 'contact-inbox.ndjson')

/** The contact entries the e2e server's inbox has stored, oldest first. */
export function storedContacts(): Record<string, string>[] {
  if (!existsSync(E2E_INBOX_FILE)) return []
  return readFileSync(E2E_INBOX_FILE, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
}
