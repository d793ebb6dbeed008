/**
 * Response headers that only a document (or a worker) obeys: helmet and the Permissions-Policy middleware set them on
 * every response, and on a hashed script, stylesheet or image under /_astro, or on a bodiless 304 to a script's
 * conditional read, they do nothing but cost about 0.8 KB per response on HTTP/1.1 (issue #17 data budget: an
 * account page loads 20–30 such files). `X-Content-Type-Options` and `Cross-Origin-Resource-Policy`, which do apply
 * to subresources, stay. The service worker (/sw.js) is not under /_astro, so it keeps its CSP.
 */
export const DOCUMENT_ONLY_HEADERS = ['Content-Security-Policy', 'Permissions-Policy', 'Cross-Origin-Opener-Policy', 'Origin-Agent-Cluster',
  'Referrer-Policy', 'X-Frame-Options', 'X-DNS-Prefetch-Control', 'X-Download-Options', 'X-Permitted-Cross-Domain-Policies', 'X-XSS-Protection'];
