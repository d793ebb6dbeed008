/**
 * Access log of staff reads of applicant records (privacy audit F7: the privacy notice says staff access "is logged",
 * and an admin opening an application, the students list, contact messages, bookings or the CSV export wrote no
 * line). One middleware, mounted in front of the routers (api/src/routes.ts), so no route has to remember it.
 */
import type { RequestHandler } from 'express';
import type { AuthedUser } from './guards.ts';

/**
 * Reads of personal data, matched against routeKey of the path without the query string (Express matches routes
 * case-insensitively, ignores a trailing slash and decodes parameters, so `/API/Admin/Students/` is the same read as
 * `/api/admin/students`, and `/api/applications/%31` as `/api/applications/1`): the application list, one application, its checklist, the CSV export, the students
 * list, contact messages, assessment bookings, erasure requests, an uploaded document, and the external system's
 * students, a branch's students, enrolable applications, payments and the payments CSV (names, e-mails, amounts;
 * every /api/external route is admin-only, so the reader is always a signed-in admin). `single` marks a route whose
 * answer is one record, however many lists (history, documents) it holds. Dashboard figures, reports, settings, the
 * site build, the external branches and health name no one and are not logged.
 */
const PERSONAL_READS: { re: RegExp; single: boolean }[] = [
  { re: /^\/api\/admin\/applications\/\d+$/, single: true },
  { re: /^\/api\/admin\/applications(\/|$)/, single: false },
  { re: /^\/api\/admin\/(students|contact-messages|assessment-bookings|erasure-requests)(\/|$)/, single: false },
  { re: /^\/api\/(colfront\/)?applications\/\d+(\/checklist)?$/, single: true },
  { re: /^\/api\/uploads\/[^/]+$/, single: true },
  { re: /^\/api\/external\/(students|enrolable-applications|payments|payments\.csv|branches\/[^/]+\/students)$/, single: false },
];

/** The number of records in a JSON list answer: the length of its first array-valued property (`applications`, `students`, …), else 1. */
function recordCount(body: unknown): number {
  if (Array.isArray(body)) return body.length;
  if (body && typeof body === 'object') {
    for (const v of Object.values(body as Record<string, unknown>)) if (Array.isArray(v)) return v.length;
  }
  return 1;
}

/**
 * `path` as the routes see it, for PERSONAL_READS: each segment percent-decoded (Express decodes route parameters, so
 * `/api/applications/%31` is application 1; a segment that is malformed or would decode to a `/` stays as it is),
 * lower-cased, and without one trailing slash.
 */
function routeKey(path: string): string {
  const decoded = path.split('/').map((seg) => {
    try { const d = decodeURIComponent(seg); return d.includes('/') ? seg : d; } catch { return seg; }
  }).join('/');
  return decoded.toLowerCase().replace(/(.)\/$/, '$1');
}

/** Line breaks in one chunk of a CSV answer (one per record, the header included). */
function lineBreaks(chunk: unknown): number {
  const s = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('latin1') : '';
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Middleware: when a signed-in admin's GET of a personal-data read (PERSONAL_READS) is answered below 400, logs one
 * line once the answer is done (its connection's 'close'), through console.info:
 *   `[access] admin 3 read GET /api/admin/applications/12 → 200, 1 record`
 *   `[access] admin 3 read GET /api/admin/applications/export.csv (search) → 200, 1000 records`
 * Only the admin's user id, the path (record ids are in it), the status and how many records the answer held (JSON:
 * the first array's length, else 1; CSV: lines minus the header) — never the query string, which can hold a name,
 * e-mail or phone number being searched for; "(search)" says there was a `q` or `search`. Students' and anonymous reads, refused
 * reads (401, 403, 404) and every write are not logged here (writes have their own lines). Source of the rule: POPIA
 * §19 (security safeguards) and the privacy notice's promise that staff access is logged.
 */
export const adminAccessLog: RequestHandler = (req, res, next) => {
  const user = req.user as AuthedUser | undefined;
  if (req.method !== 'GET' || user?.role !== 'admin') return next();
  // The path as Express routed it (mounted at /api: baseUrl + path, both from parseurl's pathname), not originalUrl:
  // a request line with the absolute URL ('GET http://host/api/admin/students') is routed the same, and its
  // originalUrl matched no pattern (review: 200 with the student list and no line).
  const path = req.baseUrl + req.path;
  const key = routeKey(path);
  const read = PERSONAL_READS.find(({ re }) => re.test(key));
  if (!read) return next();
  let records: number | null = null;
  let csvLines = 0;
  const csv = key.endsWith('.csv');
  const json = res.json.bind(res);
  res.json = (body: unknown) => { records = read.single ? 1 : recordCount(body); return json(body); };
  // Only a CSV export is counted by lines; a document download passes through untouched (review: every chunk of
  // every document was decoded to count lines nobody used).
  if (csv) {
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    res.write = ((chunk: unknown, ...rest: unknown[]) => { csvLines += lineBreaks(chunk); return write(chunk, ...rest); }) as typeof res.write;
  }
  const searched = (v: unknown) => typeof v === 'string' && v.trim() !== '';
  const search = searched(req.query.q) || searched(req.query.search) ? ' (search)' : '';
  // 'close', not 'finish': a download whose connection closes as its last bytes go out never emits 'finish' (the
  // document line went missing in a full test run), and a read cut short was still a read.
  res.once('close', () => {
    if (res.statusCode >= 400) return;
    const count = records ?? (csv ? Math.max(0, csvLines - 1) : 1);
    console.info(`[access] admin ${user.id} read GET ${path}${search} → ${res.statusCode}, ${count} record${count === 1 ? '' : 's'}`);
  });
  next();
};
