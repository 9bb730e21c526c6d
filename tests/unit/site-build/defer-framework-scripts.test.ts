import {
  deferFrameworkScripts,
  deferredPayloadOf,
  deferredScriptsOf,
  LOADER_FALLBACK_MS,
  loaderScript,
} from '@/site-build/defer-framework-scripts'
import { adaptiveFontPreload } from '@/site-build/adaptive-font-preload'

/** A page shaped like Next 16's static export (head scripts, RSC payload at the end of body). */
const page = [
  '<!DOCTYPE html><html lang="en-GB"><head><meta charSet="utf-8"/>',
  '<link rel="preload" href="/_next/static/media/font.woff2" as="font" crossorigin="" type="font/woff2"/>',
  '<link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/main.js"/>',
  '<script src="/_next/static/chunks/a.js" async=""></script>',
  '<script src="/_next/static/chunks/b.js" async=""></script>',
  '<script>document.documentElement.dataset.js=""</script>',
  '<script src="/_next/static/chunks/polyfills.js" noModule=""></script>',
  '<script src="https://widget.example/embed.js" async=""></script>',
  '<script src="/_next/static/chunks/main.js" async=""></script>',
  '</head><body><h1>Hi</h1><script>self.__next_f.push([1,"x"])</script></body></html>',
].join('')

test("moves Next's async chunks and script preloads into one loader at the end of <body>, in order", () => {
  const out = deferFrameworkScripts(page)
  expect(out).not.toContain('<script src="/_next/static/chunks/a.js"')
  expect(out).not.toContain('<script src="/_next/static/chunks/main.js"')
  expect(out).not.toContain('rel="preload" as="script"')
  // Everything else stays: the font preload, inline scripts, the nomodule polyfill, third-party scripts.
  expect(out).toContain('as="font"')
  expect(out).toContain('<script>document.documentElement.dataset.js=""</script>')
  expect(out).toContain('noModule=""')
  expect(out).toContain('https://widget.example/embed.js')
  // After the page's own body, one loader: its chunk list in page order, no payload file.
  const body = out.slice(out.indexOf('<h1>'))
  const start = '<h1>Hi</h1><script>self.__next_f.push([1,"x"])</script><script>(function(d,s,p){'
  const end =
    '})(document,["/_next/static/chunks/a.js","/_next/static/chunks/b.js","/_next/static/chunks/main.js"],null)</script></body></html>'
  expect(body.slice(0, start.length)).toBe(start)
  expect(body.slice(-end.length)).toBe(end)
  expect(body.match(/<script>/g)).toHaveLength(2)
})

test('deferredScriptsOf reads the loader back (for byte counts)', () => {
  expect(deferredScriptsOf(deferFrameworkScripts(page))).toEqual([
    '/_next/static/chunks/a.js',
    '/_next/static/chunks/b.js',
    '/_next/static/chunks/main.js',
  ])
  expect(deferredScriptsOf(page)).toEqual([])
  // A page finalized before the loader took a payload argument.
  expect(deferredScriptsOf('<script>(function(d,s){var done=0;})(document,["/a.js"])</script>')).toEqual([
    '/a.js',
  ])
  // Another inline script of the same shape before it (the font preload) is not the loader.
  const withFontPreload = deferFrameworkScripts(page).replace(
    '<head>',
    `<head>${adaptiveFontPreload(['/_next/static/media/font.p.woff2'])}`,
  )
  expect(deferredScriptsOf(withFontPreload)).toHaveLength(3)
  expect(deferredScriptsOf(withFontPreload)[0]).toBe('/_next/static/chunks/a.js')
})

test('a page without framework scripts, or one already rewritten, is returned unchanged', () => {
  const plain = '<!DOCTYPE html><html><head></head><body><p>x</p></body></html>'
  expect(deferFrameworkScripts(plain)).toBe(plain)
  const once = deferFrameworkScripts(page)
  expect(deferFrameworkScripts(once)).toBe(once)
})

test('a source cannot close the loader script', () => {
  expect(loaderScript(['/_next/static/</script><b>.js'])).not.toContain('</script>')
})

const withPayload = page.replace(
  '<script>self.__next_f.push([1,"x"])</script>',
  '<script>(self.__next_f=self.__next_f||[]).push([0])</script><script>self.__next_f.push([1,"1:\\"a\\"\\n"])</script><script>self.__next_f.push([1,"2:[]\\n"])</script>',
)

test("cuts the inline RSC payload when the page's .txt holds the same bytes, and fetches that instead", () => {
  const out = deferFrameworkScripts(withPayload, { url: '/index.txt', text: '1:"a"\n2:[]\n' })
  expect(out).not.toContain('self.__next_f.push([1,')
  // The bootstrap stays inline: it is what marks a page as Next's before its scripts run.
  expect(out).toContain('<script>(self.__next_f=self.__next_f||[]).push([0])</script>')
  expect(deferredPayloadOf(out)).toBe('/index.txt')
  expect(deferredScriptsOf(out)).toHaveLength(3)
})

test('keeps the inline payload when the file differs or there is none', () => {
  for (const payload of [{ url: '/index.txt', text: '1:"b"\n2:[]\n' }, undefined]) {
    const out = deferFrameworkScripts(withPayload, payload)
    expect(out).toContain('<script>self.__next_f.push([1,"2:[]\\n"])</script>')
    expect(deferredPayloadOf(out)).toBeNull()
  }
})

describe('the loader in a browser', () => {
  type Observer = { callback: (list: { getEntries: () => { name: string }[] }) => void }
  let observers: Observer[]
  let originalObserver: unknown

  beforeEach(() => {
    jest.useFakeTimers()
    observers = []
    originalObserver = (window as unknown as { PerformanceObserver?: unknown }).PerformanceObserver
    class FakeObserver {
      static supportedEntryTypes = ['paint']
      callback: Observer['callback']
      constructor(callback: Observer['callback']) {
        this.callback = callback
        observers.push(this)
      }
      observe() {}
    }
    Object.assign(window, { PerformanceObserver: FakeObserver })
    document.body.innerHTML = ''
  })
  afterEach(() => {
    jest.useRealTimers()
    Object.assign(window, { PerformanceObserver: originalObserver })
  })

  const run = (sources: string[]) => new Function(loaderScript(sources))()
  const appended = () => [...document.body.querySelectorAll('script')].map((s) => s.getAttribute('src'))

  test('appends the scripts (async, in order) only after the first contentful paint', () => {
    run(['/_next/static/chunks/a.js', '/_next/static/chunks/b.js'])
    jest.advanceTimersByTime(100)
    expect(appended()).toEqual([])
    observers[0]!.callback({ getEntries: () => [{ name: 'first-paint' }] })
    jest.advanceTimersByTime(100)
    expect(appended()).toEqual([])
    observers[0]!.callback({ getEntries: () => [{ name: 'first-contentful-paint' }] })
    jest.advanceTimersByTime(0)
    expect(appended()).toEqual(['/_next/static/chunks/a.js', '/_next/static/chunks/b.js'])
    expect([...document.body.querySelectorAll('script')].every((s) => s.async)).toBe(true)
    // Once only, whatever else fires.
    jest.advanceTimersByTime(LOADER_FALLBACK_MS)
    expect(appended()).toHaveLength(2)
  })

  test(`starts after ${LOADER_FALLBACK_MS} ms when no paint is reported`, () => {
    run(['/_next/static/chunks/a.js'])
    jest.advanceTimersByTime(LOADER_FALLBACK_MS - 1)
    expect(appended()).toEqual([])
    jest.advanceTimersByTime(1)
    expect(appended()).toEqual(['/_next/static/chunks/a.js'])
  })

  test('starts at once in a background tab (nothing will paint)', () => {
    const visibility = jest.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden')
    run(['/_next/static/chunks/a.js'])
    expect(appended()).toEqual(['/_next/static/chunks/a.js'])
    visibility.mockRestore()
  })

  describe('with a payload file', () => {
    let fetched: string[]
    let answer: (response: { ok: boolean; text: () => Promise<string> }) => void
    let fail: () => void
    beforeEach(() => {
      fetched = []
      Object.assign(window, {
        fetch: (url: string) => {
          fetched.push(url)
          return new Promise((resolve, reject) => {
            answer = resolve
            fail = () => reject(new TypeError('offline'))
          })
        },
      })
      delete (window as { __next_f?: unknown }).__next_f
    })
    const runWithPayload = () =>
      new Function(loaderScript(['/_next/static/chunks/a.js', '/_next/static/chunks/b.js'], '/index.txt'))()
    const preloads = () =>
      [...document.head.querySelectorAll('link[rel="preload"][as="script"]')].map((l) =>
        l.getAttribute('href'),
      )
    const paint = () => {
      observers[0]!.callback({ getEntries: () => [{ name: 'first-contentful-paint' }] })
      jest.advanceTimersByTime(0)
    }

    test('at first paint preloads the chunks and fetches the payload; adds the chunks once it is pushed', async () => {
      runWithPayload()
      jest.advanceTimersByTime(100)
      expect(fetched).toEqual([])
      paint()
      expect(fetched).toEqual(['/index.txt'])
      expect(preloads()).toEqual(['/_next/static/chunks/a.js', '/_next/static/chunks/b.js'])
      expect(appended()).toEqual([])
      answer({ ok: true, text: async () => '1:"a"\n' })
      await jest.runAllTimersAsync()
      expect((window as { __next_f?: unknown[] }).__next_f).toEqual([[1, '1:"a"\n']])
      expect(appended()).toEqual(['/_next/static/chunks/a.js', '/_next/static/chunks/b.js'])
    })

    test('adds no chunks when the payload cannot be fetched: the page stays plain HTML', async () => {
      runWithPayload()
      paint()
      fail()
      await jest.runAllTimersAsync()
      expect(appended()).toEqual([])
      expect((window as { __next_f?: unknown }).__next_f).toBeUndefined()
    })

    test('adds no chunks when the payload file answers an error', async () => {
      runWithPayload()
      paint()
      answer({ ok: false, text: async () => 'Not found' })
      await jest.runAllTimersAsync()
      expect(appended()).toEqual([])
    })
  })

  test('waits one frame where paint timing is not supported', () => {
    Object.assign(window, { PerformanceObserver: undefined })
    run(['/_next/static/chunks/a.js'])
    expect(appended()).toEqual([])
    jest.advanceTimersByTime(50) // jsdom's requestAnimationFrame runs on a timer
    expect(appended()).toEqual(['/_next/static/chunks/a.js'])
  })
})
