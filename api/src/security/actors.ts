/**
 * Actors and placeholder ids for the security suite: `makeWorld(t)` creates student A (with an upload,
 * a submitted application — hence a payment and a notification — on course 1), student B and an admin,
 * each a signed-in supertest agent. Accounts are created through the auth service and signed in through
 * POST /api/auth/login, so the per-IP registration limit is not spent. `fillPath()` replaces `:params`
 * with ids of A's real rows, chosen by the path segment in front of the parameter.
 */
import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import supertest from 'supertest';
import type { TestApp } from '../test/harness.ts';
import { insertUpload, uniqueEmail, validApplication } from '../test/harness.ts';
import { registerStudent, ensureAdmin } from '../features/auth/auth.service.ts';
import { payments } from '../db/schema/applications.ts';
import { courses } from '../db/schema/catalogue.ts';
import { notifications, announcements } from '../db/schema/messaging.ts';

export interface Actor { agent: supertest.Agent; id: number; email: string; password: string; token: string }

async function login(t: TestApp, email: string, password: string, id: number): Promise<Actor> {
  const agent = t.request();
  const res = await agent.post('/api/auth/login').send({ email, password });
  if (res.status !== 200) throw new Error(`login failed for ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  return { agent, id, email, password, token: res.body.token };
}

/** A new student account, signed in. */
export async function makeStudent(t: TestApp): Promise<Actor> {
  const email = uniqueEmail('sec');
  const password = 'secret123';
  const user = await registerStudent(t.database.db, { email, password, firstName: 'Sec', lastName: 'Student', phone: '0821234567' });
  return login(t, email, password, user.id);
}

/** A new admin account, signed in to the portal and (when the route exists) to the external system. */
export async function makeAdmin(t: TestApp): Promise<Actor> {
  const email = uniqueEmail('secadmin');
  const password = 'admin-pass-123';
  const user = await ensureAdmin(t.database.db, email, password);
  const admin = await login(t, email, password, user.id);
  // The external system needs its own login (spec §4; local driver: the admin's portal credentials).
  const ext = await admin.agent.post('/api/external/login').send({ email, password });
  if (ext.status !== 200 && ext.status !== 404) throw new Error(`external login failed: ${ext.status} ${JSON.stringify(ext.body)}`);
  return admin;
}

export interface World {
  a: Actor; b: Actor; admin: Actor;
  /** Ids of rows owned by A (or public rows), by resource name. */
  ids: Record<string, string>;
}

/** Submits a valid application for `courseId` as `s` with two fresh upload rows (and extra `headers`); returns the response. */
export async function submitAs(t: TestApp, s: Actor, courseId = 1, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<supertest.Response> {
  const idDocument = await insertUpload(t, s.id);
  const transcripts = await insertUpload(t, s.id);
  return s.agent.post('/api/applications').set(headers).send({ ...validApplication(courseId, { idDocument, transcripts }), ...extra });
}

/** A, B and an admin; A owns an upload, an application, a payment and a notification. */
export async function makeWorld(t: TestApp, opts: { freshContent?: boolean } = {}): Promise<World> {
  const [a, b, admin] = [await makeStudent(t), await makeStudent(t), await makeAdmin(t)];
  const db = t.database.db;
  let courseId = 1;
  let announcementId: number | undefined;
  if (opts.freshContent) {
    // Destructive routes get their own course and announcement so a DELETE cannot disturb later checks.
    const [c] = await db.insert(courses).values({ title: `Disposable ${crypto.randomUUID()}`, description: 'Course made by the security suite', tuitionFee: 'R 1 000', department: 'Business' }).returning({ id: courses.id });
    courseId = c.id;
    const [an] = await db.insert(announcements).values({ title: 'Disposable', content: 'Made by the security suite' }).returning({ id: announcements.id });
    announcementId = an.id;
  } else {
    const [an] = await db.select({ id: announcements.id }).from(announcements).limit(1);
    announcementId = an?.id;
  }
  const upload = await insertUpload(t, a.id);
  const applied = await submitAs(t, a, courseId);
  if (applied.status !== 201) throw new Error(`setup: A could not apply: ${applied.status} ${JSON.stringify(applied.body)}`);
  const applicationId = String(applied.body.application.id);
  const [pay] = await db.select({ id: payments.id }).from(payments).where(eq(payments.userId, a.id)).limit(1);
  const [note] = await db.select({ id: notifications.id }).from(notifications).where(and(eq(notifications.userId, a.id))).limit(1);
  return {
    a, b, admin,
    ids: {
      courses: String(courseId), applications: applicationId, uploads: upload, payments: String(pay?.id ?? 1),
      notifications: String(note?.id ?? 1), announcements: String(announcementId ?? 1), users: String(a.id),
      students: String(a.id), branches: '1', drafts: 'apply-1', contact: '1', 'assessment-centre': '1',
    },
  };
}

/** Resources A owns: another student using these ids must get 404 (ASVS 8.2.2). */
export const OWNED_RESOURCES = new Set(['applications', 'uploads', 'payments', 'notifications', 'drafts']);

/** The resource a param belongs to: the segment before it ('/api/uploads/:id' → 'uploads'). */
export function resourceOf(path: string): string | null {
  const segs = path.split('/').filter(Boolean);
  const i = segs.findIndex((s) => s.startsWith(':'));
  return i > 0 ? segs[i - 1] : null;
}

/** Replaces each `:param` with an id from `ids` (by the segment before it), else '1'. */
export function fillPath(path: string, ids: Record<string, string>): string {
  const segs = path.split('/');
  return segs.map((s, i) => {
    if (!s.startsWith(':')) return s;
    const owner = segs[i - 1];
    return encodeURIComponent(ids[owner] ?? ids[s.slice(1)] ?? '1');
  }).join('/');
}

/** An anonymous client (no cookies). */
export const anonymous = (t: TestApp): supertest.Agent => supertest(t.url);
