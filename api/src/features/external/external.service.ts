/**
 * External administration system services (spec §2, §4 External login, §5 External payment; DESIGN §4):
 * choosing the driver, payment totals per currency, the CSV export and enrolling an accepted application.
 */
import { stringify } from 'csv-stringify/sync';
import type { Db } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { conflict } from '../../http/errors.ts';
import type { CurrencyTotal, ExternalPayment, ExternalStudent } from '#contracts/external.ts';
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

/** '1500.5' → 150050n (cents), exact for amounts with at most two decimals. */
function toCents(amount: string): bigint {
  const [whole, frac = ''] = Number(amount).toFixed(2).split('.');
  return BigInt(whole) * 100n + BigInt(frac.padEnd(2, '0'));
}
const fromCents = (c: bigint) => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;

/** Totals per currency (amount with two decimals, payment count), currencies sorted with ZAR first. */
export function totalsByCurrency(payments: ExternalPayment[]): CurrencyTotal[] {
  const sums = new Map<string, { cents: bigint; count: number }>();
  for (const p of payments) {
    const s = sums.get(p.currency) ?? { cents: 0n, count: 0 };
    s.cents += toCents(p.amount); s.count += 1;
    sums.set(p.currency, s);
  }
  return [...sums.entries()]
    .sort(([a], [b]) => (a === 'ZAR' ? -1 : b === 'ZAR' ? 1 : a.localeCompare(b)))
    .map(([currency, s]) => ({ currency, amount: fromCents(s.cents), count: s.count }));
}

/** Cells starting with = + - @ or a control character are prefixed with ' so spreadsheets never run them (CSV injection). */
const safeCell = (v: string | null | undefined) => {
  const s = v ?? '';
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
};

/** The payments as CSV (RFC 4180, header row, UTF-8); one line per payment, amounts with two decimals. */
export function paymentsCsv(payments: ExternalPayment[]): string {
  return stringify(payments.map((p) => [
    safeCell(p.reference), p.date, safeCell(p.studentName), safeCell(p.studentId), safeCell(p.branchName),
    p.amount, p.currency, PAYMENT_METHOD_LABELS[p.method] ?? p.method, safeCell(p.status), safeCell(p.description),
  ]), { header: true, columns: ['Reference', 'Date', 'Student', 'Student ID', 'Branch', 'Amount', 'Currency', 'Method', 'Status', 'Description'] });
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
