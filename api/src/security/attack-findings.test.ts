/**
 * Regression tests for the independent attack of issue #12, findings 4–12 (each test is named with its
 * ASVS 5.0 requirement): open redirect, upload display names, form acknowledgements, CSP hashing,
 * JSON depth, image URLs, Permissions-Policy, query parameters in logs and the bulk-decision race.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import supertest from 'supertest';
import { eq, sql } from 'drizzle-orm';
import { startTestApp, DB_KIND, type TestApp } from '../test/harness.ts';
import { createApp } from '../app.ts';
import { applications, applicationStatusHistory } from '../db/schema/applications.ts';
import { bulkDecision } from '../features/admin/admin.service.ts';
import { makeAdmin, makeStudent, submitAs, type Actor } from './actors.ts';
import { safeRedirect, destinationAfterLogin } from '../../../site/islands/auth/safe-redirect.ts';
import { safeRedirect as externalRedirect } from '../../../site/islands/external/external-client.ts';
import { inlineScriptHashes } from '../site-build/csp.ts';
import { CourseInputSchema } from '#contracts/courses.ts';
import { AnnouncementInputSchema } from '#contracts/announcements.ts';
import { todayInSouthAfrica } from '#contracts/assessment.ts';
import { deliveredMails, mailsTo } from '../test/mail.ts';
import { siteOrigin } from '../mail/links.ts';

let t: TestApp;
let admin: Actor;
let student: Actor;
let siteDir: string;
let site: { url: string; server: Server };

beforeAll(async () => {
  t = await startTestApp();
  [admin, student] = [await makeAdmin(t), await makeStudent(t)];
  siteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'i12-site-'));
  fs.writeFileSync(path.join(siteDir, 'index.html'), '<!doctype html><title>Home</title><p>home</p>');
  fs.writeFileSync(path.join(siteDir, '404.html'), '<!doctype html><title>Page Not Found</title>');
  const app = createApp({ ...t.deps, site: { dir: () => siteDir } });
  const server: Server = await new Promise((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
  site = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
});
afterAll(async () => {
  if (site) await new Promise<void>((r) => { site.server.close(() => r()); site.server.closeAllConnections?.(); });
  await t?.close();
  if (siteDir) fs.rmSync(siteDir, { recursive: true, force: true });
});

const rows = async (q: ReturnType<typeof sql>) => ((await t.database.db.execute(q)) as any).rows as any[];

describe('finding 4: open redirect after login', () => {
  const ORIGIN = 'https://portal.college.example';
  const TRICKS = [
    '/.//evil.example', '/..//evil.example', '/%2e//evil.example', '/%2E//evil.example', '/%2e%2e//evil.example',
    '/./%2e//evil.example', '/a/..//evil.example', '/a/../..//evil.example', '/./..//evil.example',
    '\\\\evil.example', '/\\evil.example', '/\\/evil.example', '\\/evil.example', '//evil.example', '///evil.example',
    'https://evil.example/', 'http:/evil.example', 'https:evil.example', 'javascript:alert(1)', 'JaVaScRiPt:alert(1)',
    '/\t/evil.example', '/\n/evil.example', '/\r/evil.example', '\t//evil.example', ' //evil.example', '/%0a/evil.example'.replace('%0a', '\n'),
    'evil.example', '', 'data:text/html,<script>alert(1)</script>', '/\u0000/evil.example',
  ];

  it('V3.7.2 open redirect › every trick that resolves off-site (/.//host, /..//host, /%2e//host, backslashes, schemes, control characters) is refused', () => {
    for (const bad of TRICKS) {
      const got = safeRedirect(bad, ORIGIN);
      // Whatever comes back must mean a page of this origin when the browser resolves it.
      if (got !== null) expect(new URL(got, ORIGIN).origin, JSON.stringify(bad)).toBe(ORIGIN);
      expect(got, JSON.stringify(bad)).toBeNull();
      expect(new URL(destinationAfterLogin('student', bad), ORIGIN).origin).toBe(ORIGIN);
      expect(externalRedirect(bad)).toBe('/admin/branches');
    }
  });

  it('V3.7.2 open redirect › same-site paths (login and /auth) keep their query and fragment; the external login keeps admin pages only', () => {
    expect(safeRedirect('/apply/3', ORIGIN)).toBe('/apply/3');
    expect(safeRedirect('/my-applications?tab=pending#top', ORIGIN)).toBe('/my-applications?tab=pending#top');
    expect(safeRedirect('/admin/./applications', ORIGIN)).toBe('/admin/applications');
    expect(destinationAfterLogin('admin', '/admin/applications?status=pending')).toBe('/admin/applications?status=pending');
    expect(externalRedirect('/admin/external-students?status=active')).toBe('/admin/external-students?status=active');
    expect(externalRedirect('/admin/.././/evil.example')).toBe('/admin/branches');
    expect(externalRedirect('/dashboard/student')).toBe('/admin/branches');
  });
});

describe(`finding 5: upload display names (${DB_KIND})`, () => {
  it('V5.2.2 upload names › a PDF sent as transcript.html is stored and downloaded as transcript.pdf', async () => {
    const polyglot = Buffer.from('%PDF-1.4\n<html><body><script>alert(document.cookie)</script></body></html>\n1 0 obj<<>>endobj\n%%EOF\n');
    const cases: [string, string][] = [['transcript.html', 'transcript.pdf'], ['cv.PDF', 'cv.pdf'], ['notes', 'notes.pdf'], ['a.pdf.svg', 'a.pdf.pdf'], ['.htaccess', 'htaccess.pdf']];
    for (const [sent, stored] of cases) {
      const up = await student.agent.post('/api/uploads').attach('file', polyglot, { filename: sent, contentType: 'text/html' });
      expect(up.status, sent).toBe(201);
      expect(up.body.upload.name, sent).toBe(stored);
      const dl = await admin.agent.get(`/api/uploads/${up.body.upload.id}`);
      expect(dl.status).toBe(200);
      expect(String(dl.headers['content-disposition'])).toContain(stored);
      expect(String(dl.headers['content-disposition'])).not.toMatch(/\.html|\.svg|htaccess"/);
      expect(dl.headers['content-type']).toMatch(/^application\/pdf/);
    }
  });
});

describe(`finding 6: form acknowledgements (${DB_KIND})`, () => {
  it('V1.3.11 mail content › contact and assessment acknowledgements carry none of the visitor\'s text or links; the details go only to the office', async () => {
    const victim = `victim.${crypto.randomUUID()}@example.com`;
    const spam = 'WIN A PRIZE http://evil.example/claim';
    const contact = await t.request().post('/api/contact').send({ firstName: 'Visit', lastName: 'Spammer', email: victim, phone: '0821234567', message: `Hello! ${spam} now.` });
    expect(contact.status).toBe(201);
    const day = new Date(`${todayInSouthAfrica()}T00:00:00Z`);
    day.setUTCDate(day.getUTCDate() + 3);
    while ([0, 6].includes(day.getUTCDay())) day.setUTCDate(day.getUTCDate() + 1);
    const booking = await t.request().post('/api/assessment-centre').send({
      firstName: 'Visit', lastName: 'Spammer', email: victim, phone: '0821234567', dateOfBirth: '2004-05-06',
      idNumber: '0405065123086', preferredCampus: 'biaba', courseInterest: 'information-technology', assessmentType: 'combined',
      preferredDate: day.toISOString().slice(0, 10), preferredTime: 'morning', educationLevel: 'grade-12', specialNeeds: spam, additionalNotes: spam,
    });
    expect(booking.status).toBe(201);
    const toVictim = await mailsTo(t, victim);
    expect(toVictim.length).toBe(2);
    for (const m of toVictim) {
      expect(`${m.subject}\n${m.text}`).not.toMatch(/evil\.example|WIN A PRIZE|Spammer/i);
      // The only link is the college's own site, in the footer every applicant mail ends with (mail/messages.ts).
      expect(`${m.subject}\n${m.text}`.match(/https?:\/\/\S+/gi) ?? []).toEqual([siteOrigin(t.config)]);
    }
    const toOffice = (await deliveredMails(t)).filter((m) => m.text.includes(spam));
    expect(toOffice.length).toBe(2);
    for (const m of toOffice) expect(m.to).toBe(t.config.OFFICE_EMAIL);
  });
});

describe('finding 7: CSP hashes only real inline scripts', () => {
  const sha = (s: string) => `'sha256-${crypto.createHash('sha256').update(s).digest('base64')}'`;
  it('V3.4.3 CSP › script text inside an attribute (og:description), a comment, a textarea or a title is never hashed; real inline scripts are', () => {
    const html = `<!doctype html><html><head>
      <meta property="og:description" content="<script>evil()</script>">
      <meta name="x" content='<script type="module">evil2()</script>'>
      <title><script>evil3()</script></title>
      <!-- <script>evil4()</script> -->
      <script>theme()</script>
      <script type="application/ld+json">{"a":"</scr"}</script>
      <script src="/x.js"></script>
      <script type="module">island()</script>
      </head><body><textarea><script>evil5()</script></textarea>
      <noscript><p>no js</p></noscript>
      <template><script>tpl()</script></template>
      <div data-x="<script>evil6()</script>"></div></body></html>`;
    const got = inlineScriptHashes(html).sort();
    expect(got).toEqual([sha('theme()'), sha('island()'), sha('tpl()')].sort());
    for (const evil of ['evil()', 'evil2()', 'evil3()', 'evil4()', 'evil5()', 'evil6()']) expect(got).not.toContain(sha(evil));
  });
});

describe(`finding 8: deeply nested JSON (${DB_KIND})`, () => {
  it('V2.2.1 JSON depth › deeply nested bodies get 400 invalid_json on every route, never 500', async () => {
    const deepArray = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const deepObject = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const targets: [string, string, Actor | null][] = [
      ['post', '/api/auth/login', null], ['post', '/api/contact', null], ['put', '/api/drafts?key=apply-1', student],
      ['post', '/api/applications', student], ['put', '/api/profile', student],
    ];
    for (const [method, url, who] of targets) {
      for (const body of [deepArray, deepObject, `{"email":${deepArray}}`]) {
        const agent = who ? who.agent : t.request();
        const res = await (agent as any)[method](url).set('Content-Type', 'application/json').send(body);
        expect(res.status, `${method} ${url}`).toBe(400);
        expect(res.body.error.code).toBe('invalid_json');
      }
    }
    const fine = await t.request().post('/api/auth/login').send({ email: 'nobody@example.com', password: 'whatever1' });
    expect(fine.status).toBe(401);
  });
});

describe('finding 9: image URLs', () => {
  it('V1.2.2 URL schemes › course and announcement imageUrl accept http(s) only; javascript:, data:, vbscript:, file: and ftp: are refused', () => {
    const course = { title: 'T', description: 'D', level: 'certificate', duration: 12, department: 'Business', tuitionFee: 'R 1', startDate: 'Jan' };
    const announcement = { title: 'Title', content: 'Enough content here' };
    for (const bad of ['javascript:alert(1)', ' JavaScript:alert(1)', 'java\tscript:alert(1)', 'data:image/png;base64,AAAA', 'vbscript:msgbox(1)', 'file:///etc/passwd', 'ftp://x.example/a.png']) {
      const c = CourseInputSchema.safeParse({ ...course, imageUrl: bad });
      expect(c.success, bad).toBe(false);
      expect(c.error?.issues[0]?.message).toBe('Please enter a valid URL');
      expect(AnnouncementInputSchema.safeParse({ ...announcement, imageUrl: bad }).success, bad).toBe(false);
    }
    expect(CourseInputSchema.parse({ ...course, imageUrl: ' https://cdn.example/a.jpg ' }).imageUrl).toBe('https://cdn.example/a.jpg');
    expect(CourseInputSchema.parse({ ...course, imageUrl: 'http://cdn.example/a.jpg' }).imageUrl).toBe('http://cdn.example/a.jpg');
    expect(CourseInputSchema.parse({ ...course, imageUrl: '' }).imageUrl).toBeNull();
    expect(AnnouncementInputSchema.parse({ ...announcement, imageUrl: null }).imageUrl).toBeNull();
  });

  it(`V1.2.2 URL schemes › the course API refuses a javascript: imageUrl with 400 and stores nothing (${DB_KIND})`, async () => {
    const res = await admin.agent.post('/api/courses').send({ title: 'Evil course', description: 'D', level: 'certificate', duration: 12, department: 'Business', tuitionFee: 'R 1', startDate: 'Jan', imageUrl: 'javascript:alert(1)' });
    expect(res.status).toBe(400);
    expect(res.body.error.fields.imageUrl).toBe('Please enter a valid URL');
    expect((await rows(sql`SELECT id FROM courses WHERE title = 'Evil course'`)).length).toBe(0);
  });
});

describe(`finding 10: Permissions-Policy (${DB_KIND})`, () => {
  it('V3.4 headers › API answers (ok, error, cached) and pages carry a Permissions-Policy that disables camera, microphone, geolocation and payment', async () => {
    const s = supertest(site.url);
    const responses = [await s.get('/api/courses'), await s.get('/api/courses'), await s.get('/api/nope'), await s.post('/api/auth/login').send({}), await s.get('/'), await s.get('/missing-page')];
    for (const [i, r] of responses.entries()) {
      const pp = String(r.headers['permissions-policy'] ?? '');
      for (const feature of ['camera=()', 'microphone=()', 'geolocation=()', 'payment=()']) expect(pp, `response ${i}`).toContain(feature);
    }
  });
});

describe(`finding 11: no query parameters in logs (${DB_KIND})`, () => {
  it('V16.2.5 logging › a database error is logged with the SQL and SQLSTATE but without the parameters (e-mail, phone, message)', async () => {
    const marker = crypto.randomUUID();
    const email = `logged.${marker}@example.com`;
    const logged: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => { logged.push(args.map((a) => (a instanceof Error ? `${a.stack}` : String(a))).join(' ')); });
    await t.database.db.execute(sql`ALTER TABLE contact_messages RENAME TO contact_messages_gone`);
    try {
      const res = await t.request().post('/api/contact').send({ firstName: 'Log', lastName: 'Check', email, phone: '0821239876', message: `Secret message ${marker}` });
      expect(res.status).toBe(500);
      expect(JSON.stringify(res.body)).not.toContain(marker);
    } finally {
      await t.database.db.execute(sql`ALTER TABLE contact_messages_gone RENAME TO contact_messages`);
      spy.mockRestore();
    }
    const log = logged.join('\n');
    expect(log).toContain('Failed query');
    expect(log).toContain('contact_messages');
    expect(log).toContain('42P01');
    expect(log).not.toContain(marker);
    expect(log).not.toContain('0821239876');
    expect(log).not.toMatch(/params:/);
  });
});

describe(`finding 12: bulk decisions under the row lock (${DB_KIND})`, () => {
  it('V2.3.4 business logic locking › concurrent bulk approve/reject of one pending application applies exactly one decision', async () => {
    const applicant = await makeStudent(t);
    const applied = await submitAs(t, applicant, 3);
    expect(applied.status).toBe(201);
    const id = applied.body.application.id as number;
    const decisions = ['accepted', 'rejected', 'accepted', 'rejected', 'accepted', 'rejected'];
    const answers = await Promise.all(decisions.map((status) => admin.agent.post('/api/admin/applications/bulk').send({ ids: [id], status })));
    const results = answers.map((r) => r.body.results[0]);
    expect(results.filter((r) => r.ok).length).toBe(1);
    const winner = results.find((r) => r.ok)!.status;
    for (const r of results.filter((x) => !x.ok)) {
      expect(r.error).toBe('Only pending applications can be approved or rejected from the list');
      expect(r.status).toBe(winner);
    }
    const history = await t.database.db.select().from(applicationStatusHistory).where(eq(applicationStatusHistory.applicationId, id));
    expect(history.filter((h) => h.fromStatus === 'pending' && h.toStatus !== 'pending').length).toBe(1);
  });

  it('V2.3.4 business logic locking › a decision that lands between the list\'s check and the row lock is not overwritten by a bulk reject', async () => {
    const applicant = await makeStudent(t);
    const applied = await submitAs(t, applicant, 4);
    const id = applied.body.application.id as number;
    const db = t.database.db;
    // Another admin accepts the application just before this bulk decision takes its row lock.
    let interfered = false;
    const racing = new Proxy(db, {
      get(target, prop) {
        if (prop === 'transaction') {
          return async (fn: any) => {
            if (!interfered) { interfered = true; await db.update(applications).set({ status: 'accepted' }).where(eq(applications.id, id)); }
            return target.transaction(fn);
          };
        }
        const v = Reflect.get(target, prop, target);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    }) as typeof db;
    const [result] = await bulkDecision(racing, admin.id, { ids: [id], status: 'rejected', notes: '' } as any, 'http://127.0.0.1');
    expect(interfered).toBe(true);
    expect(result).toMatchObject({ id, ok: false, status: 'accepted', error: 'Only pending applications can be approved or rejected from the list' });
    const [row] = await db.select({ status: applications.status }).from(applications).where(eq(applications.id, id));
    expect(row.status).toBe('accepted');
  });
});
