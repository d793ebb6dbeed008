/**
 * The `http` external driver: a remote administration system at EXTERNAL_API_URL, contract in the README
 * ("External administration system (http driver contract)"). Every call is bounded by
 * EXTERNAL_TIMEOUT_MS (AbortSignal.timeout) so a slow remote gives 504 and a down one 502, never a hang.
 * Remote answers are validated with the contract schemas; anything else is a 502.
 * Auth: POST /auth/login returns a token sent as `Authorization: Bearer <token>` on every other call.
 */
import { z } from 'zod';
import { badRequest, conflict, HttpError, notFound } from '../../http/errors.ts';
import {
  CurrencyTotalSchema, ExternalBranchSchema, ExternalPaymentSchema, ExternalStudentSchema, ExternalUserSchema, type ExternalPageQuery,
} from '#contracts/external.ts';
import { sortTotals, totalsByCurrency } from './external.totals.ts';
import {
  EXTERNAL_TIMEOUT_MS, externalLoginFailed, externalLoginRequired, externalTimeout, externalUnavailable,
  type ExternalContext, type ExternalDriver,
} from './external.driver.ts';

interface CallOpts { method?: string; token?: string; body?: unknown; idempotencyKey?: string; query?: Record<string, string> }
interface Reply { status: number; body: any }

const BAD_RESPONSE = 'The external system sent an unexpected response';
/** Rows asked of the remote per request while the CSV export reads every payment. */
const EXPORT_PAGE_SIZE = 1000;

/**
 * The page `p` of a remote list answer. A remote that pages answers the page asked for and `total`; one that ignores
 * `page`/`pageSize` (the original contract) sends every row and no `total`, and the page is cut here.
 */
function pageOf<T>(rows: T[], total: number | undefined, p: ExternalPageQuery): { rows: T[]; total: number } {
  if (total !== undefined) return { rows: rows.slice(0, p.pageSize), total };
  const start = (p.page - 1) * p.pageSize;
  return { rows: rows.slice(start, start + p.pageSize), total: rows.length };
}
const pageParams = (p: ExternalPageQuery) => ({ page: String(p.page), pageSize: String(p.pageSize) });

/** Field messages from a remote 4xx body, kept only when they are plain strings. */
function remoteFields(body: any): Record<string, string> | undefined {
  const f = body?.error?.fields;
  if (!f || typeof f !== 'object') return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(f)) if (typeof v === 'string' && k.length <= 64) out[k] = v.slice(0, 300);
  return Object.keys(out).length ? out : undefined;
}
const remoteMessage = (body: any, fallback: string): string =>
  typeof body?.error?.message === 'string' ? body.error.message.slice(0, 300) : fallback;

/**
 * The `http` driver for the remote system at `baseUrl` (README http driver contract): each call aborts after `timeoutMs`
 * ms (default EXTERNAL_TIMEOUT_MS) → 504; connection errors and off-contract answers → 502; remote 400/404/409 keep their
 * status with the remote message (≤ 300 characters; 422 → 400); remote 401/403 → external_login_required.
 */
export function httpDriver(baseUrl: string, timeoutMs = EXTERNAL_TIMEOUT_MS): ExternalDriver {
  const base = baseUrl.replace(/\/+$/, '');

  async function call(path: string, o: CallOpts = {}): Promise<Reply> {
    const url = new URL(base + path);
    for (const [k, v] of Object.entries(o.query ?? {})) if (v) url.searchParams.set(k, v);
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (o.body !== undefined) headers['Content-Type'] = 'application/json';
    if (o.token) headers.Authorization = `Bearer ${o.token}`;
    if (o.idempotencyKey) headers['Idempotency-Key'] = o.idempotencyKey;
    try {
      const res = await fetch(url, {
        method: o.method ?? 'GET', headers, body: o.body === undefined ? undefined : JSON.stringify(o.body),
        signal: AbortSignal.timeout(timeoutMs), redirect: 'error',
      });
      const text = await res.text();
      let body: unknown = null;
      if (text) { try { body = JSON.parse(text); } catch { if (res.ok) throw externalUnavailable(BAD_RESPONSE); } }
      return { status: res.status, body };
    } catch (err: any) {
      if (err instanceof HttpError) throw err;
      if (err?.name === 'TimeoutError' || err?.name === 'AbortError') {
        console.warn(`[external] ${o.method ?? 'GET'} ${path} timed out after ${timeoutMs} ms`);
        throw externalTimeout();
      }
      console.warn(`[external] ${o.method ?? 'GET'} ${path} failed: ${err?.cause?.code ?? err?.message ?? err}`);
      throw externalUnavailable();
    }
  }

  /** Maps a remote status to ours: 2xx parsed with `schema`; 401 → login required; 5xx → 502. */
  async function read<T>(path: string, schema: z.ZodType<T>, o: CallOpts & { notFoundMessage?: string } = {}): Promise<{ data: T; status: number }> {
    const r = await call(path, o);
    if (r.status >= 200 && r.status < 300) {
      const parsed = schema.safeParse(r.body);
      if (!parsed.success) {
        console.warn(`[external] ${path}: unexpected response shape`);
        throw externalUnavailable(BAD_RESPONSE);
      }
      return { data: parsed.data, status: r.status };
    }
    if (r.status === 401 || r.status === 403) throw externalLoginRequired();
    if (r.status === 404) throw notFound(o.notFoundMessage ?? 'Not found');
    if (r.status === 409) throw conflict(remoteMessage(r.body, 'Conflict'), remoteFields(r.body));
    if (r.status === 400 || r.status === 422) {
      const fields = remoteFields(r.body);
      throw badRequest(remoteMessage(r.body, 'The external system refused the request'), fields);
    }
    console.warn(`[external] ${path} answered ${r.status}`);
    throw externalUnavailable();
  }

  const Branches = z.object({ branches: z.array(ExternalBranchSchema) });
  const Total = z.coerce.number().int().min(0).optional();
  const Students = z.object({ students: z.array(ExternalStudentSchema), total: Total });
  const BranchStudents = z.object({ branch: ExternalBranchSchema, students: z.array(ExternalStudentSchema), total: Total });
  const Student = z.object({ student: ExternalStudentSchema });
  // A paging remote sends the totals of every payment with its page (they cannot be summed from one page).
  const Payments = z.object({ payments: z.array(ExternalPaymentSchema), total: Total, totals: z.array(CurrencyTotalSchema).optional() })
    .refine((b) => b.total === undefined || b.totals !== undefined, 'totals missing from a paged answer');
  const Payment = z.object({ payment: ExternalPaymentSchema });
  const Login = z.object({ token: z.string().min(1).max(4096), user: ExternalUserSchema });
  const Health = z.object({ status: z.string() });
  const seg = (id: string) => encodeURIComponent(id);

  return {
    name: 'http',

    async health() {
      const r = await call('/health');
      const parsed = Health.safeParse(r.body);
      if (r.status !== 200 || !parsed.success || parsed.data.status !== 'OK') throw externalUnavailable();
      return { status: 'OK', message: 'External system is available' };
    },

    async login(creds) {
      const r = await call('/auth/login', { method: 'POST', body: { email: creds.email, password: creds.password } });
      if (r.status === 400 || r.status === 401 || r.status === 403) throw externalLoginFailed();
      if (r.status !== 200) throw externalUnavailable();
      const parsed = Login.safeParse(r.body);
      if (!parsed.success) throw externalUnavailable(BAD_RESPONSE);
      return { user: parsed.data.user, token: parsed.data.token };
    },

    async logout(ctx: ExternalContext) {
      if (!ctx.token) return;
      // Best effort: the portal forgets the token whatever the remote answers.
      try { await call('/auth/logout', { method: 'POST', token: ctx.token }); } catch { /* logged in call() */ }
    },

    async listBranches(ctx) {
      return (await read('/branches', Branches, { token: ctx.token })).data.branches;
    },

    async branchStudents(ctx, id, page) {
      const { data } = await read(`/branches/${seg(id)}/students`, BranchStudents, { token: ctx.token, query: pageParams(page), notFoundMessage: 'Branch not found' });
      const { rows, total } = pageOf(data.students, data.total, page);
      return { branch: data.branch, students: rows, total };
    },

    async listStudents(ctx, q) {
      const { data } = await read('/students', Students, { token: ctx.token, query: { search: q.search, status: q.status, ...pageParams(q) } });
      const { rows, total } = pageOf(data.students, data.total, q);
      return { students: rows, total };
    },

    async createStudent(ctx, input) {
      return (await read('/students', Student, { method: 'POST', token: ctx.token, body: input })).data.student;
    },

    async studentFromApplication(ctx, input) {
      const { applicationId, ...rest } = input;
      const r = await read('/students', Student, {
        method: 'POST', token: ctx.token, body: { ...rest, status: 'active', externalRef: `application-${applicationId}` },
        idempotencyKey: `application-${applicationId}`,
      });
      return { student: r.data.student, created: r.status === 201 };
    },

    async listPayments(ctx, page) {
      const { data } = await read('/payments', Payments, { token: ctx.token, query: pageParams(page) });
      const { rows, total } = pageOf(data.payments, data.total, page);
      return { payments: rows, total, totals: data.totals ? sortTotals(data.totals) : totalsByCurrency(data.payments) };
    },

    async *allPayments(ctx) {
      // Page after page while the remote pages (bounded by its first total); a remote that does not sends all at once.
      let limit = Infinity;
      for (let page = 1; page <= limit; page++) {
        const { data } = await read('/payments', Payments, { token: ctx.token, query: pageParams({ page, pageSize: EXPORT_PAGE_SIZE }) });
        if (data.total === undefined) { yield data.payments; return; }
        if (page === 1) limit = Math.ceil(data.total / EXPORT_PAGE_SIZE);
        const rows = data.payments.slice(0, EXPORT_PAGE_SIZE);
        if (rows.length) yield rows;
        if (rows.length < EXPORT_PAGE_SIZE) return;
      }
    },

    async addPayment(ctx, input, key) {
      const { idempotencyKey: _k, ...body } = input;
      try {
        const r = await read('/payments', Payment, {
          method: 'POST', token: ctx.token, body, idempotencyKey: key ? `${ctx.portalUserId}:${key}` : undefined, notFoundMessage: 'Student not found',
        });
        return { payment: r.data.payment, created: r.status === 201 };
      } catch (err) {
        if (err instanceof HttpError && err.status === 404) throw badRequest('Student not found', { studentId: 'Student not found' });
        throw err;
      }
    },
  };
}
