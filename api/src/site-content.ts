/**
 * The college as content/site.json describes it, read once at start (the same file the static site is built from):
 * `name` and `shortName` (mail sender and footer, SMS prefix), `telephone`, `officeHours` (may be ''), `email`, and
 * `accreditationNumber` (the settings' default), `postalAddress` (the first campus's address: the sender's address in
 * announcement mail footers). A missing or unreadable file gives 'The college' / '' values, so the
 * API still starts; the site build reports the file itself.
 */
import fs from 'node:fs';

/** The fields of content/site.json the API uses (strings; '' when absent). */
export interface SiteContent { name: string; shortName: string; telephone: string; officeHours: string; email: string; accreditationNumber: string; postalAddress: string }

function readSiteContent(): SiteContent {
  let site: Record<string, unknown> = {};
  try { site = JSON.parse(fs.readFileSync(new URL('../../content/site.json', import.meta.url), 'utf8')); } catch { /* defaults below */ }
  const text = (v: unknown, fallback = '') => (v == null ? fallback : String(v));
  const name = text(site.name, 'The college');
  return { name, shortName: text(site.shortName, name), telephone: text(site.telephone), officeHours: text(site.officeHours), email: text(site.email), accreditationNumber: text(site.accreditationNumber),
    postalAddress: Array.isArray(site.campuses) ? text((site.campuses[0] as { address?: unknown } | undefined)?.address) : '' };
}

/** content/site.json, read once when the API starts. */
export const SITE_CONTENT: SiteContent = readSiteContent();
