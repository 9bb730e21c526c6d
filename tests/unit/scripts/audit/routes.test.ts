/**
 * @jest-environment node
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { htmlFilesOf, NOT_FOUND_ROUTE, routesOf } from '../../../../scripts/audit/routes'

describe('routesOf (the routes audit:fast visits)', () => {
  it('maps exported HTML files to clean, percent-encoded URLs, with the 404 page at an unknown path', () => {
    const routes = routesOf([
      'index.html',
      'sites.html',
      'case-studies.html',
      'case-studies/Osteopath Lancing.html',
      'case-studies/osteopath-lancing.html',
      'booking/index.html',
      '404.html',
      '_not-found.html',
    ])
    expect(routes).toEqual([
      { url: '/', file: 'index.html' },
      { url: '/booking/', file: 'booking/index.html' },
      { url: '/case-studies', file: 'case-studies.html' },
      { url: '/case-studies/Osteopath%20Lancing', file: 'case-studies/Osteopath Lancing.html' },
      { url: '/case-studies/osteopath-lancing', file: 'case-studies/osteopath-lancing.html' },
      { url: '/sites', file: 'sites.html' },
      { url: NOT_FOUND_ROUTE, file: '404.html' },
    ])
  })

  it('leaves out the small pages at old addresses: the server redirects them to a page it audits', () => {
    const files = ['index.html', 'case-studies/osteopath-lancing.html', 'case-studies/Osteopath Lancing.html']
    const redirects = [
      { from: '/case-studies/Osteopath%20Lancing', to: '/case-studies/osteopath-lancing', _id: 'x' },
    ]
    expect(routesOf(files, { redirects })).toEqual([
      { url: '/', file: 'index.html' },
      { url: '/case-studies/osteopath-lancing', file: 'case-studies/osteopath-lancing.html' },
    ])
  })

  it('leaves out skipped prefixes and non-HTML files; no 404 route without a 404 page', () => {
    expect(routesOf(['index.html', 'booking/index.html', 'robots.txt'], { skip: ['booking/'] })).toEqual([
      { url: '/', file: 'index.html' },
    ])
  })
})

describe('htmlFilesOf', () => {
  let root: string
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'audit-routes-'))
    await mkdir(path.join(root, 'case-studies'))
    await mkdir(path.join(root, '.hidden'))
    for (const file of ['index.html', 'case-studies/Um Al Hayaa.html', 'index.html.br', '.hidden/x.html'])
      await writeFile(path.join(root, file), '')
  })
  afterAll(() => rm(root, { recursive: true, force: true }))

  it('lists the HTML files relative to the root, without compressed copies or hidden folders', async () => {
    expect(await htmlFilesOf(root)).toEqual(['case-studies/Um Al Hayaa.html', 'index.html'])
  })
})
