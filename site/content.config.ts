/**
 * Content collections (DESIGN §1): courses and announcements come from the API's public endpoints at
 * build time (SITE_API_URL, set by the server's site builder); `legal` is Markdown from content/legal.
 */
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { ANNOUNCEMENTS_SHOWN } from '#contracts/announcements.ts';

const apiUrl = () => process.env.SITE_API_URL || 'http://127.0.0.1:4321';

/** GET `path` from the API, fresh (past its public cache); the body and the answer's ETag (null if none). */
async function fetchJson<T>(path: string): Promise<T & { etag: string | null }> {
  const res = await fetch(`${apiUrl()}${path}`, { headers: { "cache-control": "no-cache" } });
  if (!res.ok) throw new Error(`Content loader: GET ${path} answered ${res.status}`);
  return { ...(await res.json() as T), etag: res.headers.get('etag') };
}

const courses = defineCollection({
  loader: async () => {
    const { courses } = await fetchJson<{ courses: any[] }>('/api/courses');
    return courses.map((c) => ({ ...c, id: String(c.id), courseId: c.id }));
  },
  schema: z.object({
    courseId: z.number(), title: z.string(), name: z.string(), description: z.string(), level: z.string(),
    duration: z.number().nullable(), tuitionFee: z.string(), price: z.string().nullable(), startDate: z.string().nullable(),
    requirements: z.string().nullable(), department: z.string(), isActive: z.boolean(), imageUrl: z.string().nullable(), createdAt: z.string(),
    minimumAps: z.number().default(0),
    subjectRequirements: z.array(z.object({ subject: z.string(), minimumPercent: z.number() })).default([]),
  }),
});

const announcements = defineCollection({
  loader: async () => {
    // Only the newest ANNOUNCEMENTS_SHOWN: the home and About pages show no more (volume audit: 225 rows, 152 KB).
    const { announcements, etag } = await fetchJson<{ announcements: any[] }>(`/api/announcements?limit=${ANNOUNCEMENTS_SHOWN}`);
    // `listEtag`: the ETag of the list this build saw; the About page asks the same URL whether it still holds (issue #17).
    return announcements.map((a) => ({ ...a, id: String(a.id), announcementId: a.id, listEtag: etag }));
  },
  schema: z.object({
    announcementId: z.number(), listEtag: z.string().nullable().default(null), title: z.string(), content: z.string(), imageUrl: z.string().nullable(), createdAt: z.string().nullable(),
  }),
});

/** Terms and privacy notice: editable Markdown in content/legal (issue #3). */
const legal = defineCollection({
  loader: glob({ pattern: '*.md', base: './content/legal' }),
  schema: z.object({ title: z.string(), description: z.string(), version: z.string() }),
});

export const collections = { courses, announcements, legal };
