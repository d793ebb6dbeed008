/**
 * robots.txt with an absolute Sitemap URL (crawlers and Lighthouse need one), built from the site URL
 * (PUBLIC_URL at build time). Private areas are disallowed; they are noindex and out of the sitemap anyway.
 */
import type { APIRoute } from 'astro';

export const GET: APIRoute = ({ site }) => {
  const sitemap = new URL('/sitemap-index.xml', site ?? 'http://localhost:4321').href;
  const body = ['User-agent: *', 'Disallow: /admin', 'Disallow: /dashboard', 'Disallow: /api/', 'Allow: /', `Sitemap: ${sitemap}`, ''].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
