/**
 * The script every page of a preview build loads (bundled by
 * postbuild/presentation-connection.ts). Framed by the Studio's Presentation tool (or
 * opened from it), it loads the connection; anywhere else it does nothing more.
 */
if (window.self !== window.top || window.opener) void import('./connect.ts')
