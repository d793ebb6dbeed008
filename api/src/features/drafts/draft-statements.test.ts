/**
 * What one draft save (PUT /api/applications/draft, the wizard's autosave) asks the database. Counted through
 * drizzle's logger, as in submit-statements.test.ts, on PGlite and PostgreSQL alike; the cookie session store's own
 * statements (connect-pg-simple on the pool) are not in the count, the session user's lookup (requireUser) is.
 * The rules (the course exists, the account's draft limit unless the draft is already there), the revision check and
 * the write are one statement (upsertDraft with limits): an autosave is one round trip. Only a save that wrote nothing
 * asks why (draftRoom: one statement), and, when allowed, reads the stored draft for the conflict answer.
 * Before: a save under course-<id> asked 3 (course, count of other drafts, write), a refused one at the limit 3.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signUpStudent, statementCounter, DB_KIND, type TestApp } from '../../test/harness.ts';
import { courses } from '../../db/schema/catalogue.ts';
import { MAX_DRAFTS_PER_USER } from './drafts.service.ts';

let t: TestApp;
let during: ReturnType<typeof statementCounter>;

beforeAll(async () => {
  t = await startTestApp();
  during = statementCounter(t);
});
afterAll(async () => { await t.close(); });

type Agent = Awaited<ReturnType<typeof signUpStudent>>['agent'];
/** The statements of one PUT of `body` under `key` by `agent`, with the answer's status. */
async function save(agent: Agent, key: string, body: Record<string, unknown>): Promise<{ status: number; body: any; sql: string[] }> {
  const { result: res, sql } = await during(() => agent.put(`/api/applications/draft?key=${key}`).send(body).then((r) => r));
  return { status: res.status, body: res.body, sql };
}

/** The statements that are not the session user's lookup (requireUser). */
const ofTheSave = (sql: string[]) => sql.filter((q) => !/^select .* from "users"/.test(q));

describe(`draft save statements (${DB_KIND})`, () => {
  it('a save is one statement: new and existing drafts, course and other keys, at the limit; a refusal two, a conflict three', async () => {
    const extra = Array.from({ length: MAX_DRAFTS_PER_USER }, (_, i) => ({ title: `Draft Statements Course ${i}`, description: 'x', tuitionFee: 'R 100', department: 'Business' }));
    const rows = await t.database.db.insert(courses).values(extra).returning({ id: courses.id });
    const s = await signUpStudent(t);
    const first = await save(s.agent, `course-${rows[0].id}`, { step: 1, data: { n: 0 } });
    expect(first.status).toBe(200);
    expect(ofTheSave(first.sql), first.sql.join('\n')).toHaveLength(1);
    // The raw statement's row reads back as drizzle's own: the same draft as GET answers (ISO 8601 time, data object).
    expect((await s.agent.get(`/api/applications/draft?key=course-${rows[0].id}`)).body.draft).toEqual(first.body.draft);
    expect(first.body.draft.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const again = await save(s.agent, `course-${rows[0].id}`, { step: 2, data: { n: 0 }, revision: first.body.draft.revision });
    expect(again.status).toBe(200);
    expect(ofTheSave(again.sql), again.sql.join('\n')).toHaveLength(1);
    const general = await save(s.agent, 'general', { step: 1, data: {} });
    expect(general.status).toBe(200);
    expect(ofTheSave(general.sql), general.sql.join('\n')).toHaveLength(1);
    for (let i = 1; i < MAX_DRAFTS_PER_USER - 1; i++) expect((await save(s.agent, `course-${rows[i].id}`, { step: 1, data: { n: i } })).status).toBe(200);
    // At the limit (20 drafts): an existing one is saved, still with one check.
    const atLimit = await save(s.agent, `course-${rows[0].id}`, { step: 3, data: { n: 0 }, revision: again.body.draft.revision });
    expect(atLimit.status).toBe(200);
    expect(ofTheSave(atLimit.sql), atLimit.sql.join('\n')).toHaveLength(1);
    // A new key beyond the limit: the write that wrote nothing, then why.
    const refused = await save(s.agent, `course-${rows[MAX_DRAFTS_PER_USER - 1].id}`, { step: 1, data: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('draft_limit');
    expect(ofTheSave(refused.sql), refused.sql.join('\n')).toHaveLength(2);
    // An unknown course: the same two, 404.
    const unknown = await save(s.agent, 'course-200001', { step: 1, data: {} });
    expect(unknown.status).toBe(404);
    expect(ofTheSave(unknown.sql), unknown.sql.join('\n')).toHaveLength(2);
    // A save from an old revision: the write, why, the stored draft (the conflict answer); nothing changed.
    const stale = await save(s.agent, `course-${rows[0].id}`, { step: 4, data: { n: 'old' }, revision: first.body.draft.revision });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('conflict');
    expect(stale.body.draft).toMatchObject({ step: 3, data: { n: 0 }, revision: atLimit.body.draft.revision });
    expect(ofTheSave(stale.sql), stale.sql.join('\n')).toHaveLength(3);
  });
});
