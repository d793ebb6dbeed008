/**
 * The messages of the contracts the admin and external pages share with the API (common, courses, announcements,
 * settings, external, admin's list queries built on pageQuerySchema, and the edits' shared expectedUpdatedAt) for a set of bad and good inputs: for each
 * exported schema, the issues (path: message) or the parsed value, in a snapshot taken from the classic-zod contracts
 * (issue #17 moved them to zod/mini; the API's 400 answers and the forms' messages must not change by a byte).
 * Two runs:
 * - as the server runs: classic `zod` is loaded (it switches on zod's English default messages), every case;
 * - as the browser runs: no default messages (the client loads only zod/mini), the cases a form can produce (text in
 *   text fields, ticks in checkboxes, lists in lists, in the five schemas the islands validate with) must give the
 *   same messages, so none of them relies on a default.
 * And each object schema's parse of its base with an unknown key (`extra: 1`), recorded as the parsed object itself
 * (unknownKeys), so stripping, passing through or rejecting unknown keys is held too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as classic from 'zod';
import * as common from './common.ts';
import * as courses from './courses.ts';
import * as announcements from './announcements.ts';
import * as settings from './settings.ts';
import * as external from './external.ts';
import * as admin from './admin.ts';
import * as expectedVersion from './expected-version.ts';

type Parser = { safeParse(v: unknown): { success: boolean; data?: unknown; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } } };

const long = (n: number) => 'x'.repeat(n);
/** Values each field (and each non-object schema) is given: empty, blank, wrong types, bounds, bad URLs and e-mails. */
const VALUES: unknown[] = [
  undefined, null, '', '   ', 'x', '  padded text  ', 'abc', true, false, [], {},
  -1, 0, 1, 1.5, 12, 121, 2147483648, Number.NaN,
  '-1', '0', '1', '1.5', '12', '1.999', '0x10', '1e3', 'R 1 250,50', '1,250', '99999999999',
  'Business', ' business ', 'busines', 'certificate', 'diploma', 'active', 'all', 'card', 'zar', 'XYZ',
  'not a url', 'https://img.example/a.png', 'http://img.example/a.png', 'ftp://img.example/a.png', 'javascript:alert(1)',
  `https://img.example/${long(2040)}`,
  'not an email', 'a@b', 'Office@College.Example', 'someone@erased.invalid',
  '2026-01-01T10:00:00.000Z', '2026-01-01T10:00:00+02:00', '2026-01-01',
  '082 123 4567', '082123456b', '+27 82 123 4567 890 123 456 789 0123',
  'bad id!', 'APP-1',
  long(61), long(65), long(101), long(129), long(161), long(201), long(301), long(501), long(2001), long(5001), long(10001),
  [{ subject: 'Mathematics', minimumPercent: 50 }], [{ subject: 'Nope', minimumPercent: 500 }],
];

const label = (v: unknown): string => {
  if (typeof v === 'string' && v.length > 40) return `'${v.slice(0, 20)}…' (${v.length} chars)`;
  if (v === undefined) return 'undefined';
  if (typeof v === 'number' && Number.isNaN(v)) return 'NaN';
  return JSON.stringify(v);
};

const short = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'string' && x.length > 40 ? `${x.slice(0, 20)}…(${x.length})` : x));

/** 'path: message' per issue, or 'ok ' and the parsed value (of `field` only when given: the rest is the base's). */
function outcome(schema: Parser, input: unknown, field?: string): string {
  const r = schema.safeParse(input);
  if (r.success) return `ok ${field === undefined ? short(r.data) : `${field}=${short((r.data as Record<string, unknown>)[field])}`}`;
  return r.error!.issues.map((i) => `${i.path.join('.') || '_'}: ${i.message}`).join(' | ');
}

/**
 * A schema, a valid object for it (absent for non-object schemas), and, when an island validates with it, what its
 * form puts in each field: 'text' (a string), 'tick' (a boolean) or 'list' (an array); `more`, values a non-object
 * schema is given after VALUES.
 */
interface Case { schema: Parser; base?: Record<string, unknown>; form?: Record<string, 'text' | 'tick' | 'list'>; more?: unknown[] }

const course = { title: 'Bookkeeping', description: 'Learn the books', level: 'certificate', duration: 12, department: 'Business', tuitionFee: 'R 1 000', startDate: 'January' };
const announcement = { title: 'Open day', content: 'Come to the open day', imageUrl: '', active: true, sendEmail: false, sendNotification: false };
const courseForm = {
  title: 'text', description: 'text', level: 'text', duration: 'text', department: 'text', tuitionFee: 'text', startDate: 'text', price: 'text',
  requirements: 'text', imageUrl: 'text', minimumAps: 'text', subjectRequirements: 'list', isActive: 'tick',
} as const;
const CASES: Record<string, Case> = {
  'common.ApplicationStatusSchema': { schema: common.ApplicationStatusSchema },
  'common.ErrorBodySchema': { schema: common.ErrorBodySchema, base: { error: { code: 'x', message: 'y' } } },
  'common.IdSchema': { schema: common.IdSchema },
  'common.IdParamSchema': { schema: common.IdParamSchema, base: { id: '1' } },
  'common.httpImageUrl()': { schema: common.httpImageUrl() },
  'common.trimmed()': { schema: common.trimmed() },
  'common.pageQuerySchema(25)': { schema: common.pageQuerySchema(25), base: {} },
  'common.pageQuerySchema(10, 20)': { schema: common.pageQuerySchema(10, 20), base: {} },
  'courses.CourseSchema': {
    schema: courses.CourseSchema,
    base: { id: 1, title: 'T', name: 'T', description: 'D', level: 'certificate', duration: 12, tuitionFee: 'R1', price: null, startDate: null, requirements: null, minimumAps: 0, subjectRequirements: [], department: 'Business', isActive: true, imageUrl: null, createdAt: 'c', updatedAt: 'u' },
  },
  'courses.CoursePriceSchema': { schema: courses.CoursePriceSchema },
  'courses.CourseDepartmentSchema': { schema: courses.CourseDepartmentSchema },
  'courses.CourseInputSchema': { schema: courses.CourseInputSchema, base: course, form: courseForm },
  'courses.CourseUpdateSchema': { schema: courses.CourseUpdateSchema, base: { ...course, expectedUpdatedAt: '2026-01-01T10:00:00.000Z' } },
  'announcements.AnnouncementInputSchema': { schema: announcements.AnnouncementInputSchema, base: announcement, form: { title: 'text', content: 'text', imageUrl: 'text', active: 'tick', sendEmail: 'tick', sendNotification: 'tick' } },
  'announcements.AnnouncementUpdateSchema': { schema: announcements.AnnouncementUpdateSchema, base: { ...announcement, expectedUpdatedAt: '2026-01-01T10:00:00.000Z' } },
  'announcements.AnnouncementSchema': {
    schema: announcements.AnnouncementSchema,
    base: { id: 1, title: 'T', content: 'C', imageUrl: null, active: true, createdBy: null, createdAt: null, updatedAt: null },
  },
  'announcements.AnnouncementListQuerySchema': { schema: announcements.AnnouncementListQuerySchema, base: {} },
  'settings.SettingsSchema': {
    schema: settings.SettingsSchema, form: { applicationFee: 'text', officeEmail: 'text', accreditationNumber: 'text', portalAccessUrl: 'text' },
    base: { applicationFee: '50', officeEmail: 'office@college.example', accreditationNumber: 'A-1', portalAccessUrl: 'https://portal.example' },
  },
  'settings.ExpectedFeeSchema': { schema: settings.ExpectedFeeSchema, base: { expectedFee: '75.5', other: 1 } },
  'external.ExternalStudentStatusSchema': { schema: external.ExternalStudentStatusSchema },
  'external.ExternalIdSchema': { schema: external.ExternalIdSchema },
  'external.ExternalIdParamSchema': { schema: external.ExternalIdParamSchema, base: { id: '1' } },
  'external.ExternalLoginSchema': { schema: external.ExternalLoginSchema, base: { email: 'a@college.example', password: 'pw' }, form: { email: 'text', password: 'text' } },
  'external.ExternalPageQuerySchema': { schema: external.ExternalPageQuerySchema, base: {} },
  'external.ExternalStudentsQuerySchema': { schema: external.ExternalStudentsQuerySchema, base: {} },
  'external.PaymentAmountSchema': { schema: external.PaymentAmountSchema },
  'external.ExternalPaymentInputSchema': { schema: external.ExternalPaymentInputSchema, base: { studentId: '1', amount: '100' },
    form: { studentId: 'text', amount: 'text', currency: 'text', method: 'text', description: 'text', reference: 'text', idempotencyKey: 'text' },
  },
  'external.ExternalStudentInputSchema': {
    schema: external.ExternalStudentInputSchema, base: { name: 'Sam Dube', email: 'sam@example.com', branchId: '1', course: 'Bookkeeping' },
  },
  'external.FromApplicationSchema': { schema: external.FromApplicationSchema, base: {} },
  'external.ApplicationIdParamSchema': { schema: external.ApplicationIdParamSchema, base: { applicationId: '1' } },
  'external.ExternalBranchSchema': { schema: external.ExternalBranchSchema, base: { id: 1, name: 'N', location: 'L', established: 1999, studentCount: 3 } },
  'external.ExternalStudentSchema': {
    schema: external.ExternalStudentSchema,
    base: { id: 1, name: 'N', email: 'e', campus: 'C', course: 'K', status: 'active', enrollmentDate: '2026-01-01' },
  },
  'external.ExternalPaymentSchema': {
    schema: external.ExternalPaymentSchema,
    base: { id: 1, reference: 'R', studentName: 'N', studentId: 2, amount: 10, currency: 'ZAR', method: 'card', date: 'd', status: 's' },
  },
  'external.ExternalUserSchema': { schema: external.ExternalUserSchema, base: { id: 1, email: 'e', name: 'n' } },
  'external.CurrencyTotalSchema': { schema: external.CurrencyTotalSchema, base: { currency: 'ZAR', amount: '10', count: '2' } },
  'external.EnrolableApplicationsQuerySchema': { schema: external.EnrolableApplicationsQuerySchema, base: {} },
  'admin.AdminApplicationsQuerySchema': { schema: admin.AdminApplicationsQuerySchema, base: {} },
  'admin.AdminPageQuerySchema': { schema: admin.AdminPageQuerySchema, base: {} },
  'admin.StudentsQuerySchema': { schema: admin.StudentsQuerySchema, base: {} },
  // Instants zod's ISO format takes and PostgreSQL's timestamptz input refuses (year 0000, offsets past ±15:59), and digits past the milliseconds.
  'expected-version.expectedUpdatedAt()': {
    schema: expectedVersion.expectedUpdatedAt(),
    more: ['0000-01-01T00:00:00Z', '0001-01-01T00:30:00+01:00', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '9999-12-31T23:59:59-05:00', '2026-01-01T10:00:00+16:00', '2026-01-01T10:00:00-23:59', '2026-01-01T10:00:00.123456Z', '2026-02-30T10:00:00Z'],
  },
};

/** Field names to vary for an object case: its base's and its shape's. */
const fieldsOf = (c: Case) => [...new Set([...Object.keys(c.base ?? {}), ...Object.keys((c.schema as { shape?: object }).shape ?? {})])];

const ofKind = { text: (v: unknown) => typeof v === 'string', tick: (v: unknown) => typeof v === 'boolean', list: Array.isArray };

/**
 * Every input of a case, labelled, and whether a form can send it: the whole value for non-object schemas; for object
 * schemas the base, and each field set to each value (a form sends a field only values of its kind).
 */
function inputs(c: Case): Array<[string, unknown, boolean, string?]> {
  const whole: Array<[string, unknown, boolean]> = [undefined, null, {}, [], 'x', 42].map((v) => [`whole ${label(v)}`, v, false]);
  if (!c.base) return [...whole, ...[...VALUES, ...(c.more ?? [])].map((v): [string, unknown, boolean] => [label(v), v, false])];
  const out: Array<[string, unknown, boolean, string?]> = [...whole, ['base', c.base, true]];
  for (const f of fieldsOf(c)) {
    const kind = c.form?.[f];
    for (const v of VALUES) out.push([`${f}=${label(v)}`, { ...c.base, [f]: v }, kind !== undefined && ofKind[kind](v), f]);
  }
  return out;
}

/**
 * name → what each object schema makes of its base with an unknown key added (`extra: 1`): the parsed object itself
 * (or the issues), so the snapshot records every key, those whose value is undefined too, which the lines above,
 * written with JSON.stringify, drop. A schema that passes unknown keys through, rejects them, or leaves a key present
 * but undefined gives a different snapshot.
 */
function unknownKeys(): Record<string, unknown> {
  const res: Record<string, unknown> = {};
  for (const [name, c] of Object.entries(CASES)) {
    if (!c.base) continue;
    const r = c.schema.safeParse({ ...c.base, extra: 1 });
    res[name] = r.success ? r.data : r.error!.issues.map((i) => `${i.path.join('.') || '_'}: ${i.message}`);
  }
  return res;
}

/** name → one line per input (only the ones a form can send when `onlyForm`). */
function run(onlyForm: boolean): Record<string, string[]> {
  const res: Record<string, string[]> = {};
  for (const [name, c] of Object.entries(CASES)) {
    if (onlyForm && !c.form) continue;
    res[name] = inputs(c).filter(([, , formLike]) => !onlyForm || formLike).map(([l, v, , f]) => `${l} → ${outcome(c.schema, v, f)}`);
  }
  return res;
}

describe('contract messages (issue #17: classic zod → zod/mini changes no message)', () => {
  let asServer: Record<string, string[]>;
  beforeAll(() => { classic.config(classic.locales.en()); asServer = run(false); });

  it('as the server runs (classic zod loaded: English defaults on): the snapshot of every case', () => {
    expect(asServer).toMatchSnapshot();
  });

  it('an unknown key ({...base, extra: 1}) is handled as recorded by every object schema (parsed objects, undefined keys included)', () => {
    expect(unknownKeys()).toMatchSnapshot();
  });

  describe('as the browser runs (zod/mini only: no default messages)', () => {
    const config = classic.config();
    const saved = config.localeError;
    beforeAll(() => { config.localeError = undefined; });
    afterAll(() => { config.localeError = saved; });

    it('the forms\' cases (text, ticks, lists) give the same messages as on the server', () => {
      const asBrowser = run(true);
      const expected = Object.fromEntries(Object.keys(asBrowser).map((k) => {
        const formLines = new Set(asBrowser[k].map((l) => l.split(' → ')[0]));
        return [k, asServer[k].filter((l) => formLines.has(l.split(' → ')[0]))];
      }));
      expect(asBrowser).toEqual(expected);
    });
  });
});
