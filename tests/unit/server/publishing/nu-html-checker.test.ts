/**
 * @jest-environment node
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { checkHtml } from '@/server/publishing/nu-html-checker'

test('the Nu checker reports HTML errors, not its CSS validator on modern CSS', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vnu-'))
  try {
    writeFileSync(
      path.join(dir, 'page.html'),
      '<!DOCTYPE html><html lang="en"><head><title>x</title>' +
        '<style>@property --x{syntax:"*";inherits:false}.a{margin-trim:block}</style></head>' +
        '<body><p>text</p><img src="a.png"></body></html>',
    )
    const errors = await checkHtml(dir, ['page.html'])
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringContaining('An “img” element must have an “alt” attribute'),
    ])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 60_000)
