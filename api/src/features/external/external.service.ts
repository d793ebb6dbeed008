/**
 * External administration system services (spec §2, §4 External login, §5 External payment; DESIGN §4):
 * choosing the driver, the CSV export of payments and enrolling an accepted application (totals: external.totals.ts).
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Db } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { conflict } from '../../http/errors.ts';
import { safeCell } from '../../http/csv.ts';
import { csvDateTime, SAST_SUFFIX } from '../../http/csv-time.ts';
import type { EnrolableApplicationsPage, ExternalPayment, ExternalStudent } from '#contracts/external.ts';
import { selectEnrolableApplications } from './external.repo.ts';
import { PAYMENT_METHOD_LABELS } from '#contracts/external-options.ts';
import { applicationDetail } from '../applications/applications.service.ts';
import type { ExternalContext, ExternalDriver } from './external.driver.ts';
import { localDriver } from './external.local.ts';
import { httpDriver } from './external.http.ts';

/** The driver named by config EXTERNAL_DRIVER ('local' default, 'http' needs EXTERNAL_API_URL). */
export function createExternalDriver(config: Pick<Config, 'EXTERNAL_DRIVER' | 'EXTERNAL_API_URL'>, db: Db): ExternalDriver {
  if (config.EXTERNAL_DRIVER === 'http') return httpDriver(config.EXTERNAL_API_URL!);
  return localDriver(db);
}

/**
 * Ends the remote half of an external-system login when the portal session that held it ends (portal log-out):
 * asks the driver that made it (`session.driver`, the same as config's) to log its token out. Best effort and never
 * throws: the remote may be down, and the portal log-out must not wait for it (the http driver gives up after
 * EXTERNAL_TIMEOUT_MS). A session made by another driver, or without a token, is left alone.
 */
export async function endExternalLogin(config: Pick<Config, 'EXTERNAL_DRIVER' | 'EXTERNAL_API_URL'>, db: Db, session: { portalUserId: number; driver: string; token?: string }): Promise<void> {
  try {
    const driver = createExternalDriver(config, db);
    if (driver.name !== session.driver || !session.token) return;
    await driver.logout({ portalUserId: session.portalUserId, token: session.token });
  } catch { /* best effort: the remote token also expires on its own */ }
}

const CSV_COLUMNS = ['Reference', `Date${SAST_SUFFIX}`, 'Student', 'Student ID', 'Branch', 'Amount', 'Currency', 'Method', 'Status', 'Description'];
const csvRecord = (p: ExternalPayment): string[] => [
  safeCell(p.reference), safeCell(csvDateTime(p.date)), safeCell(p.studentName), safeCell(p.studentId), safeCell(p.branchName),
  p.amount, p.currency, PAYMENT_METHOD_LABELS[p.method] ?? p.method, safeCell(p.status), safeCell(p.description),
];

/**
 * Every payment as a CSV byte stream (RFC 4180, header row, UTF-8), newest first, one line per payment, amounts with
 * two decimals, dates 'YYYY-MM-DD HH:mm' in South African time under 'Date (SAST)' (csvDateTime), injection-safe cells (volume audit: the export stopped at the list's 5 000 rows). `pages` are read
 * one at a time as the client downloads (csv-stringify's stream API, back-pressure); the first page is read before
 * this resolves, so a failure to reach the system is still an error answer (502/504), not a cut download.
 */
export async function paymentsCsvStream(pages: AsyncIterable<ExternalPayment[]>): Promise<Readable> {
  const it = pages[Symbol.asyncIterator]();
  const first = await it.next();
  async function* records(): AsyncGenerator<string[]> {
    yield CSV_COLUMNS;
    for (let r = first; !r.done; r = await it.next()) for (const p of r.value) yield csvRecord(p);
  }
  const source = Readable.from(records());
  const csv = stringify({ bom: true }); // UTF-8 BOM: Excel reads the file as UTF-8, not as its ANSI code page (Ṱ was "á¹°")
  source.on('error', (err) => csv.destroy(err));
  csv.on('close', () => source.destroy()); // a download stopped half-way stops reading too
  return source.pipe(csv);
}

interface Personal { firstName?: string; lastName?: string; email?: string; phone?: string; addressLine1?: string; addressLine2?: string; city?: string; state?: string; postalCode?: string }

/**
 * Turns an accepted application into an external student (issue #7), idempotent per application.
 * Throws 404 (unknown application), 409 (not accepted), 400 (unknown branch).
 */
export async function enrolApplication(db: Db, driver: ExternalDriver, ctx: ExternalContext, applicationId: number, branchId?: string): Promise<{ student: ExternalStudent; created: boolean }> {
  const { application } = await applicationDetail(db, { id: ctx.portalUserId, role: 'admin' }, applicationId);
  if (application.status !== 'accepted') throw conflict('Only accepted applications can be enrolled');
  const p = (application.personal ?? {}) as Personal;
  const address = [p.addressLine1, p.addressLine2, p.city, p.state, p.postalCode].filter((x) => x && String(x).trim()).join(', ');
  return driver.studentFromApplication(ctx, {
    applicationId, branchId,
    name: `${p.firstName ?? ''} ${p.lastName ?? ''}`.trim() || `Applicant APP-${applicationId}`,
    email: p.email ?? '', phone: p.phone ?? null, address: address || null,
    course: application.course?.title ?? `Course ${application.courseId}`,
  });
}

/** Matches the "Enrol accepted applicant" picker shows at most. */
export const ENROLABLE_LIMIT = 20;

/**
 * Accepted applications an admin may enrol (issue #7; volume audit: searchable, not the 100 newest): matching `search`
 * (APP-id, name or e-mail), newest first, the first ENROLABLE_LIMIT with the total. With the local driver the ones
 * already enrolled are left out; a remote system does not say which it has, and enrolling twice answers the same student.
 */
export function enrolableApplications(db: Db, driver: ExternalDriver, search: string): Promise<EnrolableApplicationsPage> {
  return selectEnrolableApplications(db, { search, excludeEnrolled: driver.name === 'local', limit: ENROLABLE_LIMIT });
}
