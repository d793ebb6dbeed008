/**
 * /admin/external-payments (spec §2, §5 External payment): the payment list (50 a page, 'Showing X–Y of Z') with
 * totals per currency of every payment (summed by the API), a student picker searched by name or e-mail, the
 * add-payment form (student, amount and method required; currency ZAR and method card by default) with the
 * toasts 'Payment Added' / 'Failed to add payment', and a CSV export. One idempotency key per payment attempt,
 * so a double submit is recorded once. §8 error 'Error loading payment data. Please try again.'
 * Reads payments and students only once the connection check says connected; not connected → /admin/external-login?redirect=….
 */
import { formatMoney, formatStaffDate } from '../../lib/format.ts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { EXTERNAL_CURRENCIES, EXTERNAL_PAYMENT_METHODS, PAYMENT_METHOD_LABELS } from '#contracts/external-options.ts';
import {
  ExternalPaymentInputSchema, type ExternalPayment, type ExternalPaymentData, type ExternalPaymentsPage, type ExternalStudent,
  type ExternalStudentsPage,
} from '#contracts/external.ts';
import { Pager } from '../ui/Pager.tsx';
import { api, ApiError } from '../../lib/api-client.ts';
import { toast } from '../../stores/toasts.ts';
import { Field, fieldProps } from '../ui/Field.tsx';
import { useLeaveWarning } from '../ui/use-leave-warning.ts';
import { ExternalHeader } from './ExternalHeader.tsx';
import { ErrorState } from '../ui/ErrorState.tsx';
import { SkeletonRows } from '../ui/SkeletonRows.tsx';
import { EnrolStudentButtons } from './EnrolStudent.tsx';
import { goToExternalLogin, isExternalLoginRequired, newIdempotencyKey } from './external-client.ts';
import { useExternalConnection } from './use-external-connection.ts';
import { CARD_ROWS } from '../ui/card-rows.ts';
import { BusyButton, unlessBusy } from '../ui/BusyButton.tsx';

const LOAD_ERROR = 'Error loading payment data. Please try again.';
const ORDER = ['studentId', 'amount', 'currency', 'method', 'reference', 'description'] as const;
interface FormValues { studentId: string; amount: string; currency: string; method: string; reference: string; description: string }
/** `found`, plus the chosen student of `shown` when a new search no longer lists them (the choice stays valid). */
function keepChosen(found: ExternalStudent[], shown: ExternalStudent[]): ExternalStudent[] {
  const chosen = (document.getElementById('pay-studentId') as HTMLSelectElement | null)?.value;
  const keep = chosen && !found.some((s) => String(s.id) === chosen) ? shown.find((s) => String(s.id) === chosen) : undefined;
  return keep ? [keep, ...found] : found;
}
const EMPTY: FormValues = { studentId: '', amount: '', currency: 'ZAR', method: 'card', reference: '', description: '' };

/** The /admin/external-payments island (see the file comment). */
export default function ExternalPayments() {
  const [conn, checkConnection] = useExternalConnection();
  const connected = conn.state === 'connected';
  const user = conn.state === 'connected' ? conn.user : null;
  const [data, setData] = useState<ExternalPaymentsPage | null>(null);
  const [page, setPage] = useState(1);
  const [students, setStudents] = useState<ExternalStudent[]>([]);
  const [studentTotal, setStudentTotal] = useState(0);
  const [studentSearch, setStudentSearch] = useState('');
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState(false);
  const key = useRef(newIdempotencyKey());
  // A student just enrolled here is chosen for the payment once their option exists.
  const enrolled = useRef<string | null>(null);

  const paymentsUrl = `/api/external/payments?page=${page}`;
  const load = useCallback(async () => {
    if (!connected) return;
    setLoading(true);
    try {
      setData(await api<ExternalPaymentsPage>(paymentsUrl)); setError(false);
    } catch (e) {
      if (isExternalLoginRequired(e)) { goToExternalLogin(); return; }
      setError(true);
    }
    setLoading(false);
  }, [paymentsUrl, connected]);

  useEffect(() => { if (conn.state === 'not-connected') goToExternalLogin(); }, [conn.state]);
  useEffect(() => { void load(); }, [load]);

  // The Student list offers the students matching the search box (by name), 100 at most: a college has thousands.
  useEffect(() => {
    if (!connected) return undefined;
    const ctrl = new AbortController();
    const h = setTimeout(() => {
      api<ExternalStudentsPage>(`/api/external/students?${new URLSearchParams({ search: studentSearch.trim(), pageSize: '100' })}`, { signal: ctrl.signal })
        .then((r) => { setStudents((list) => keepChosen(r.students, list)); setStudentTotal(r.total); })
        .catch((e) => { if (!ctrl.signal.aborted && isExternalLoginRequired(e)) goToExternalLogin(); });
    }, studentSearch ? 300 : 0);
    return () => { clearTimeout(h); ctrl.abort(); };
  }, [studentSearch, connected]);

  const { register, handleSubmit, reset, setValue, setError: setFieldError, setFocus, formState: { errors, isSubmitting, isDirty } } =
    useForm<FormValues, unknown, ExternalPaymentData>({ resolver: zodResolver(ExternalPaymentInputSchema) as any, defaultValues: EMPTY });
  useLeaveWarning(isDirty);

  useEffect(() => {
    if (enrolled.current && students.some((s) => String(s.id) === enrolled.current)) { setValue('studentId', enrolled.current, { shouldValidate: true }); enrolled.current = null; }
  }, [students, setValue]);

  const onSubmit = async (input: ExternalPaymentData) => {
    try {
      const r = await api<{ payment: ExternalPayment }>('/api/external/payments', {
        method: 'POST', json: input, headers: { 'Idempotency-Key': key.current },
      });
      key.current = newIdempotencyKey();
      reset(EMPTY);
      toast({ title: 'Payment Added', description: `${formatMoney(r.payment.amount, r.payment.currency)} from ${r.payment.studentName} (${r.payment.reference})`, variant: 'success' });
      try {
        if (page === 1) setData(await api<ExternalPaymentsPage>(paymentsUrl)); else setPage(1);
      } catch { setError(true); }
    } catch (e) {
      if (isExternalLoginRequired(e)) { goToExternalLogin(); return; }
      const err = e instanceof ApiError ? e : null;
      const hit = ORDER.filter((n) => err?.fields[n]);
      hit.forEach((n) => setFieldError(n, { type: 'server', message: err!.fields[n] }));
      if (hit[0]) setFocus(hit[0]);
      toast({ title: 'Failed to add payment', description: err?.userMessage ?? 'Could not reach the server. Please check your connection and try again.', variant: 'destructive' });
    }
  };

  const e = errors;
  return (
    <div>
      <ExternalHeader current="/admin/external-payments" user={user} />
      {(error || conn.state === 'error') && <div className="mb-4"><ErrorState message={LOAD_ERROR} onRetry={conn.state === 'error' ? checkConnection : load} /></div>}

      <section aria-labelledby="totals-title" className="mb-6">
        <h2 id="totals-title" className="mb-3 text-lg font-semibold">Totals</h2>
        {loading && !data ? <SkeletonRows label="Loading totals" /> : (
          <ul className="grid gap-4 sm:grid-cols-3" data-testid="payment-totals">
            {(data?.totals ?? []).length === 0 && <li className="muted">No payments recorded yet.</li>}
            {(data?.totals ?? []).map((t) => (
              <li key={t.currency} className="card p-4" data-testid={`total-${t.currency}`}>
                <p className="muted text-sm">{t.currency} · {t.count} payment{t.count === 1 ? '' : 's'}</p>
                <p className="text-2xl font-bold">{formatMoney(t.amount, t.currency)}</p>
              </li>
            ))}
          </ul>
        )}
      </section>

      <div className="grid gap-6 lg:grid-cols-[minmax(20rem,1fr)_minmax(0,2fr)]">
        <section aria-labelledby="add-payment-title" className="card min-w-0 p-5">
          <h2 id="add-payment-title" className="mb-4 text-lg font-semibold">Add payment</h2>
          {!loading && students.length === 0 && (
            <div className="mb-4 rounded border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950">
              <p className="mb-2">No students are enrolled yet. Enrol one to record their payment.</p>
            </div>
          )}
          <div className="mb-4"><EnrolStudentButtons onEnrolled={(st) => { enrolled.current = String(st.id); setStudents((list) => [st, ...list.filter((x) => x.id !== st.id)]); }} /></div>
          <form noValidate onSubmit={unlessBusy(isSubmitting, handleSubmit(onSubmit))} className="space-y-4">
            <div role="search">
              <label htmlFor="pay-student-search" className="label">Find by name or e-mail</label>
              <input id="pay-student-search" type="search" className="input" autoComplete="off" maxLength={100} value={studentSearch}
                onChange={(ev) => setStudentSearch(ev.target.value)} aria-describedby="pay-student-count" />
              <p id="pay-student-count" className="mt-1 text-xs muted" aria-live="polite">
                {studentTotal > students.length ? `Showing ${students.length} of ${studentTotal.toLocaleString('en-US')} students; type to narrow them down.` : ''}
              </p>
            </div>
            <Field id="pay-studentId" label="Student" error={e.studentId?.message}>
              <select className="input" {...fieldProps('pay-studentId', e.studentId?.message)} {...register('studentId')}>
                <option value="">{students.length ? 'Select a student' : 'No students available'}</option>
                {students.map((s) => <option key={s.id} value={String(s.id)}>{s.name} — {s.campus}</option>)}
              </select>
            </Field>
            <div className="grid grid-cols-[2fr_1fr] gap-3">
              <Field id="pay-amount" label="Amount" error={e.amount?.message}>
                <input className="input" inputMode="decimal" autoComplete="off" placeholder="0.00" {...fieldProps('pay-amount', e.amount?.message)} {...register('amount')} />
              </Field>
              <Field id="pay-currency" label="Currency" error={e.currency?.message}>
                <select className="input" {...fieldProps('pay-currency', e.currency?.message)} {...register('currency')}>
                  {EXTERNAL_CURRENCIES.map((c) => <option key={c} value={c}>{c}</option>)}
                </select>
              </Field>
            </div>
            <Field id="pay-method" label="Payment method" error={e.method?.message}>
              <select className="input" {...fieldProps('pay-method', e.method?.message)} {...register('method')}>
                {EXTERNAL_PAYMENT_METHODS.map((m) => <option key={m} value={m}>{PAYMENT_METHOD_LABELS[m]}</option>)}
              </select>
            </Field>
            <Field id="pay-reference" label="Reference (optional)" error={e.reference?.message} hint="Left blank, a reference is generated.">
              <input className="input" autoComplete="off" {...fieldProps('pay-reference', e.reference?.message)} {...register('reference')} />
            </Field>
            <Field id="pay-description" label="Description (optional)" error={e.description?.message}>
              <textarea rows={2} className="input" {...fieldProps('pay-description', e.description?.message)} {...register('description')} />
            </Field>
            <BusyButton type="submit" className="btn-primary w-full" busy={isSubmitting}>{isSubmitting ? 'Adding...' : 'Add Payment'}</BusyButton>
          </form>
        </section>

        <section aria-labelledby="payments-title" className="min-w-0">
          <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
            <h2 id="payments-title" className="text-lg font-semibold">Payments</h2>
            <a className="btn-secondary" href="/api/external/payments.csv" download>Export CSV</a>
          </div>
          {loading && !data && <SkeletonRows label="Loading payments" />}
          {data && (data.total === 0 ? <div className="card p-8 text-center muted">No payments recorded yet.</div> : (
            <div className="card overflow-x-auto" tabIndex={0} role="region" aria-label="External payments, newest first">
              <table className={`w-full text-left text-sm ${CARD_ROWS.block}`}>
                <caption className="sr-only">External payments, newest first</caption>
                <thead className={`border-b border-slate-200 bg-slate-50 dark:border-slate-700 dark:bg-slate-800 ${CARD_ROWS.visuallyHidden}`}>
                  <tr>{['Date', 'Reference', 'Student', 'Branch', 'Method', 'Amount', 'Status'].map((h) => <th key={h} scope="col" className={`px-3 py-2 font-semibold ${h === 'Amount' ? 'text-right' : ''}`}>{h}</th>)}</tr>
                </thead>
                <tbody className={CARD_ROWS.block}>
                  {data.payments.map((p) => (
                    <tr key={p.id} className={`border-b border-slate-100 last:border-0 dark:border-slate-800 ${CARD_ROWS.row}`}>
                      <td className={`whitespace-nowrap px-3 py-2 ${CARD_ROWS.labelled}`} data-label="Date">{formatStaffDate(p.date)}</td>
                      <td className={`px-3 py-2 font-mono text-xs wrap-anywhere ${CARD_ROWS.labelled}`} data-label="Reference">{p.reference}</td>
                      <td className={`px-3 py-2 ${CARD_ROWS.labelled}`} data-label="Student"><span>{p.studentName}{p.description && <span className="muted block text-xs">{p.description}</span>}</span></td>
                      <td className={`px-3 py-2 ${CARD_ROWS.labelled}`} data-label="Branch">{p.branchName ?? '—'}</td>
                      <td className={`px-3 py-2 ${CARD_ROWS.labelled}`} data-label="Method">{PAYMENT_METHOD_LABELS[p.method] ?? p.method}</td>
                      <td className={`whitespace-nowrap px-3 py-2 text-right font-semibold ${CARD_ROWS.labelled} max-lg:text-left`} data-label="Amount">{formatMoney(p.amount, p.currency)}</td>
                      <td className={`px-3 py-2 capitalize ${CARD_ROWS.labelled}`} data-label="Status">{p.status}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ))}
          {data && <Pager page={data.page} pageSize={data.pageSize} total={data.total} busy={loading} onPage={setPage} label="External payments pages" />}
        </section>
      </div>
    </div>
  );
}
