import { defineCliConfig } from 'sanity/cli'

export default defineCliConfig({
  api: {
    projectId: process.env.SANITY_STUDIO_PROJECT_ID || 'local0',
    dataset: process.env.SANITY_STUDIO_DATASET || 'production',
  },
  typegen: {
    path: '../lib/content/queries.ts',
    schema: '../lib/content/schema.json',
    generates: '../lib/content/sanity.types.ts',
  },
})
