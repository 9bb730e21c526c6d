/** Addresses no link or embed field may hold (tests of lib/content/build-rules.ts and the Studio's rules). */

/** Refused in every link or embed field. */
export const BAD_URLS = [
  'javascript:alert(1)',
  'JAVASCRIPT:alert(document.domain)',
  'JavaScript:alert(1)',
  '   javascript:alert(1)',
  '\tjavascript:alert(1)',
  'java\nscript:alert(1)',
  'http://evil.example/',
  'HTTP://evil.example/',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  '//evil.example',
]

/** Also refused where a same-site path is accepted: they look like paths, but browsers open another site. */
export const BAD_PATHS = [
  '//evil.example/x',
  '/\\evil.example',
  '/\\/evil.example/x',
  '\\\\evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  ' //evil.example',
]
