/**
 * The college's site facts for pre-rendering: content/site.json, with the accreditation number and the
 * Portal Access URL an admin saved on /admin/settings (GET /api/settings, read once per build).
 * Build-time only: import it from .astro frontmatter, never from a client script.
 */
import base from '../../content/site.json';

async function saved(): Promise<{ accreditationNumber?: string; portalAccessUrl?: string }> {
  const apiUrl = process.env.SITE_API_URL;
  if (!apiUrl) return {};
  try {
    const res = await fetch(`${apiUrl}/api/settings`, { headers: { 'cache-control': 'no-cache' } });
    return res.ok ? ((await res.json()) as { settings: { accreditationNumber?: string; portalAccessUrl?: string } }).settings : {};
  } catch {
    return {};
  }
}

const s = await saved();
export const site = {
  ...base,
  accreditationNumber: s.accreditationNumber || base.accreditationNumber,
  portalAccessUrl: s.portalAccessUrl || base.portalAccessUrl,
};
