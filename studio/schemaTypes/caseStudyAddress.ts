/** Rules that keep a case study's two addresses, slug and legacy id (product §3), apart from every other case study's. */
import { DocumentId, getPublishedId } from '@sanity/id-utils'
import type { CustomValidator, Slug } from '@sanity/types'

const API_VERSION = '2025-02-19'

const OTHERS =
  '_type == "caseStudy" && !(_id in path("drafts.**")) && !(_id in path("versions.**")) && _id != $id'
const OWNERS_OF_ADDRESS = `*[${OTHERS} && (slug.current == $address || legacyId == $address)]._id`
const OWNERS_OF_LEGACY_ID = `*[${OTHERS} && legacyId == $address]._id`

async function ownersOf(
  query: string,
  address: string,
  context: Parameters<CustomValidator>[1],
): Promise<string[]> {
  return context
    .getClient({ apiVersion: API_VERSION })
    .fetch<string[]>(query, { id: getPublishedId(DocumentId(context.document?._id ?? '')), address })
}

const taken = (address: string, owners: string[]) =>
  `"${address}" is already the address of case study "${owners[0]}"`

/** Custom rule of `legacyId`: no other case study answers at this address. */
export const legacyIdIsFree: CustomValidator<string | undefined> = async (value, context) => {
  if (!value) return true
  const owners = await ownersOf(OWNERS_OF_ADDRESS, value, context)
  return owners.length ? taken(value, owners) : true
}

/** Custom rule of `slug`: no other case study has it as its legacy id (slug against slug is Sanity's own check). */
export const slugIsFree: CustomValidator<Slug | undefined> = async (value, context) => {
  if (!value?.current) return true
  const owners = await ownersOf(OWNERS_OF_LEGACY_ID, value.current, context)
  return owners.length ? taken(value.current, owners) : true
}
