/**
 * The Studio's warning before unpublishing or deleting a document others link to
 * (studio/linkedDocumentWarning.tsx): its query, run by Sanity's own GROQ engine over
 * documents stored as the Studio stores them, and the wrapped action, rendered as Sanity
 * renders an action (the component is called with the document's props and returns its
 * button and dialog).
 */
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { evaluate, parse } from 'groq-js'
import { useState } from 'react'
import type { DocumentActionComponent, DocumentActionProps, SanityDocument } from 'sanity'
import {
  LINKING_DOCUMENTS_QUERY,
  linkingDocuments,
  pageAddressesOf,
  warnWhenLinked,
  withLinkWarning,
  type LinkingDocument,
} from '@/studio/linkedDocumentWarning'

const fetchMock = jest.fn<Promise<LinkingDocument[]>, [string, Record<string, unknown>]>()
// The real Studio does not load in jsdom: of `sanity` the module takes the Studio's client
// only, and of `sanity/presentation` (through locations.ts) `defineLocations`.
jest.mock('sanity', () => ({ useClient: () => ({ fetch: fetchMock }) }))
jest.mock('sanity/presentation', () => ({ defineLocations: (resolver: unknown) => resolver }))

/** A case study as the Studio stores it: text links are `link` annotations with an `href`. */
function caseStudy(id: string, title: string, slug: string, hrefs: string[] = [], legacyId = slug) {
  return {
    _id: id,
    _type: 'caseStudy',
    title,
    slug: { _type: 'slug', current: slug },
    legacyId,
    issue: [{ _type: 'block', _key: 'b1', style: 'normal', markDefs: [], children: [] }],
    outcome: [
      {
        _type: 'block',
        _key: 'b2',
        style: 'normal',
        markDefs: hrefs.map((href, i) => ({ _type: 'link', _key: `l${i}`, href })),
        children: hrefs.map((_, i) => ({ _type: 'span', _key: `s${i}`, text: 'more', marks: [`l${i}`] })),
      },
    ],
  } as unknown as SanityDocument
}

describe('the query', () => {
  const target = caseStudy('caseStudy-b', 'B', 'b-study', [], 'Old B')
  const run = async (dataset: unknown[]) => {
    const client = {
      fetch: async <R,>(query: string, params: Record<string, unknown>) =>
        (await (await evaluate(parse(query, { params }), { dataset, params })).get()) as R,
    }
    return linkingDocuments(client, target)
  }

  test('a case study with a text link to its page, its legacy page, or with a #fragment', async () => {
    const found = await run([
      target,
      caseStudy('caseStudy-a', 'A links', 'a', ['/case-studies/b-study']),
      caseStudy('caseStudy-c', 'C links the old address', 'c', ['/case-studies/Old%20B']),
      caseStudy('caseStudy-d', 'D links a section', 'd', [
        'https://example.com',
        '/case-studies/b-study#outcome',
      ]),
    ])
    expect(found.map((doc) => doc._id)).toEqual(['caseStudy-a', 'caseStudy-c', 'caseStudy-d'])
    expect(found[1]).toEqual({ _id: 'caseStudy-c', title: 'C links the old address' })
  })

  test('a reference counts; drafts, the document itself and other addresses do not', async () => {
    const found = await run([
      { ...target, outcome: caseStudy('x', 'x', 'x', ['/case-studies/b-study']).outcome },
      {
        _id: 'review-r',
        _type: 'review',
        name: 'Refers',
        study: { _type: 'reference', _ref: 'caseStudy-b' },
      },
      caseStudy('drafts.caseStudy-e', 'A draft', 'e', ['/case-studies/b-study']),
      caseStudy('versions.r1.caseStudy-f', 'In a release', 'f', ['/case-studies/b-study']),
      caseStudy('caseStudy-g', 'Another page', 'g', ['/case-studies/b-study-2', '/case-studies/b']),
    ])
    expect(found).toEqual([{ _id: 'review-r', title: 'Refers' }])
  })

  test('the addresses of a page: a case study has two, other documents none', () => {
    expect(pageAddressesOf(target)).toEqual([
      '/case-studies/b-study',
      '/case-studies/Old B',
      '/case-studies/Old%20B',
    ])
    expect(pageAddressesOf({ _id: 'faq-x', _type: 'faq' } as unknown as SanityDocument)).toEqual([])
    expect(LINKING_DOCUMENTS_QUERY).toContain('references($id)')
  })
})

describe('the wrapped action', () => {
  /** Sanity's unpublish action as far as the wrapper sees it: a button that opens its own dialog. */
  const useBuiltInUnpublish: DocumentActionComponent = () => {
    const [open, setOpen] = useState(false)
    return {
      label: 'Unpublish',
      tone: 'critical',
      onHandle: () => setOpen(true),
      dialog: open ? { type: 'dialog', content: 'Sanity asks', onClose: () => setOpen(false) } : null,
    }
  }
  useBuiltInUnpublish.action = 'unpublish'
  useBuiltInUnpublish.displayName = 'UnpublishAction'
  const Action = warnWhenLinked(useBuiltInUnpublish)

  const props = (published: SanityDocument | null) =>
    ({ id: 'caseStudy-b', type: 'caseStudy', draft: null, published }) as unknown as DocumentActionProps

  /** Renders the action's button and its dialog, as the document pane would. */
  function Probe(actionProps: DocumentActionProps) {
    const description = Action(actionProps)
    if (!description) return null
    const dialog = description.dialog
    return (
      <>
        <button disabled={description.disabled} onClick={description.onHandle}>
          {description.label}
        </button>
        {dialog && dialog.type === 'confirm' ? (
          <div role="dialog" data-tone={dialog.tone}>
            {dialog.message}
            <button onClick={dialog.onConfirm}>{dialog.confirmButtonText}</button>
            <button onClick={dialog.onCancel}>{dialog.cancelButtonText}</button>
          </div>
        ) : dialog && 'content' in dialog ? (
          <div role="alertdialog">{dialog.content}</div>
        ) : null}
      </>
    )
  }

  beforeEach(() => fetchMock.mockReset())
  const study = caseStudy('caseStudy-b', 'B', 'b-study')

  test('keeps the built-in key, so other config still finds it; other actions are untouched', () => {
    expect(Action.action).toBe('unpublish')
    expect(
      withLinkWarning({ ...useBuiltInUnpublish, action: 'delete' } as DocumentActionComponent).action,
    ).toBe('delete')
    const publish = (() => null) as DocumentActionComponent
    publish.action = 'publish'
    expect(warnWhenLinked(publish)).toBe(publish)
  })

  test('others link here: a dialog names them and says the publish is held back; confirming goes on', async () => {
    fetchMock.mockResolvedValue([
      { _id: 'caseStudy-a', title: 'How A saved a day' },
      { _id: 'caseStudy-c', title: 'C in Lancing' },
    ])
    render(<Probe {...props(study)} />)
    await userEvent.click(screen.getByRole('button', { name: 'Unpublish' }))

    expect(fetchMock).toHaveBeenCalledWith(LINKING_DOCUMENTS_QUERY, {
      id: 'caseStudy-b',
      hrefs: ['/case-studies/b-study'],
    })
    const dialog = await screen.findByRole('dialog')
    expect(dialog).toHaveTextContent('2 other published documents link to this one')
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'How A saved a day',
      'C in Lancing',
    ])
    expect(dialog).toHaveTextContent('the publish is held back until those links are removed')
    expect(dialog).toHaveAttribute('data-tone', 'critical')
    expect(screen.queryByRole('alertdialog')).toBeNull()

    await userEvent.click(screen.getByRole('button', { name: 'Unpublish anyway' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.getByRole('alertdialog')).toHaveTextContent('Sanity asks')
  })

  test('cancel closes it, and nothing is unpublished', async () => {
    fetchMock.mockResolvedValue([{ _id: 'caseStudy-a', title: 'A' }])
    render(<Probe {...props(study)} />)
    await userEvent.click(screen.getByRole('button', { name: 'Unpublish' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Keep it' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.queryByRole('alertdialog')).toBeNull()
  })

  test('nobody links here, or the dataset cannot be asked: straight to Sanity’s own dialog', async () => {
    fetchMock.mockResolvedValueOnce([]).mockRejectedValueOnce(new Error('offline'))
    const { unmount } = render(<Probe {...props(study)} />)
    await userEvent.click(screen.getByRole('button', { name: 'Unpublish' }))
    await waitFor(() => expect(screen.getByRole('alertdialog')).toHaveTextContent('Sanity asks'))
    unmount()
    render(<Probe {...props(study)} />)
    await userEvent.click(screen.getByRole('button', { name: 'Unpublish' }))
    await waitFor(() => expect(screen.getByRole('alertdialog')).toHaveTextContent('Sanity asks'))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  test('a document never published is no page: nothing to ask', async () => {
    render(<Probe {...props(null)} />)
    await userEvent.click(screen.getByRole('button', { name: 'Unpublish' }))
    expect(screen.getByRole('alertdialog')).toHaveTextContent('Sanity asks')
    expect(fetchMock).not.toHaveBeenCalled()
  })
})
