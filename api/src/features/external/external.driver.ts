/**
 * The external-system adapter (DESIGN §4 External administration system): one interface, two drivers
 * chosen by config EXTERNAL_DRIVER — `local` (this database) and `http` (a remote system at
 * EXTERNAL_API_URL, contract in the README). Drivers throw HttpError; the timeout/outage errors below
 * become 504/502 in the common error shape.
 */
import { HttpError } from '../../http/errors.ts';
import type {
  CurrencyTotal, ExternalBranch, ExternalPageQuery, ExternalPayment, ExternalPaymentData, ExternalStudent, ExternalStudentInput,
  ExternalStudentsQuery, ExternalUser,
} from '#contracts/external.ts';
import { EXTERNAL_ERROR } from '#contracts/external.ts';

/** Who is calling: the portal admin and, for the http driver, the remote session token. */
export interface ExternalContext { portalUserId: number; token?: string }

/** A new student taken from an accepted application (local ids; the http driver forwards the fields). */
export interface StudentFromApplication {
  applicationId: number; name: string; email: string; phone: string | null; address: string | null; course: string; branchId?: string;
}

export interface ExternalDriver {
  readonly name: 'local' | 'http';
  /** Resolves when the system answers; throws externalUnavailable/externalTimeout otherwise. */
  health(): Promise<{ status: 'OK'; message: string }>;
  /** Verifies credentials; throws 401 external_login_failed. `portalUser` is the signed-in admin. */
  login(creds: { email: string; password: string }, portalUser: { id: number; email: string }): Promise<{ user: ExternalUser; token?: string }>;
  logout(ctx: ExternalContext): Promise<void>;
  listBranches(ctx: ExternalContext): Promise<ExternalBranch[]>;
  /** One page of the branch's students (by name) and how many it has. Throws 404 for an unknown branch. */
  branchStudents(ctx: ExternalContext, branchId: string, page: ExternalPageQuery): Promise<{ branch: ExternalBranch; students: ExternalStudent[]; total: number }>;
  /** One page of the students matching `q` (by name) and how many match. */
  listStudents(ctx: ExternalContext, q: ExternalStudentsQuery): Promise<{ students: ExternalStudent[]; total: number }>;
  /** Throws 400 (unknown branch), 409 (e-mail already enrolled). */
  createStudent(ctx: ExternalContext, input: ExternalStudentInput): Promise<ExternalStudent>;
  /** Idempotent per application: `created` false when the application was enrolled before. */
  studentFromApplication(ctx: ExternalContext, input: StudentFromApplication): Promise<{ student: ExternalStudent; created: boolean }>;
  /** One page of payments, newest first; `total` payments exist and `totals` sums every one of them per currency. */
  listPayments(ctx: ExternalContext, page: ExternalPageQuery): Promise<{ payments: ExternalPayment[]; total: number; totals: CurrencyTotal[] }>;
  /** Every payment, newest first, a page at a time (the CSV export streams them). */
  allPayments(ctx: ExternalContext): AsyncIterable<ExternalPayment[]>;
  /**
   * Records a payment once per `idempotencyKey` (when given): a replay with the same payload answers the
   * first payment with created=false; the same key with a different payload is 409. Unknown student → 400.
   */
  addPayment(ctx: ExternalContext, input: ExternalPaymentData, idempotencyKey: string | undefined): Promise<{ payment: ExternalPayment; created: boolean }>;
}

export const CONNECT_FAILED = 'Could not connect to external API';
export const TIMED_OUT = 'The external system did not respond in time. Please try again.';
/** Bound on every call to the remote system, in ms (issue #7: a clear error within 5 s). */
export const EXTERNAL_TIMEOUT_MS = 4500;

/** 502: the remote system is down or answered something off-contract (spec §4 External login: 'Could not connect to external API'). */
export const externalUnavailable = (message = CONNECT_FAILED): HttpError => new HttpError(502, EXTERNAL_ERROR.unavailable, message);
/** 504: the remote system did not answer within EXTERNAL_TIMEOUT_MS (issue #7: a clear error within 5 s). */
export const externalTimeout = (): HttpError => new HttpError(504, EXTERNAL_ERROR.timeout, TIMED_OUT);
/** 401 `external_login_required`: the admin has no external session (or the remote token expired). */
export const externalLoginRequired = (): HttpError => new HttpError(401, EXTERNAL_ERROR.loginRequired, 'Please log in to the external system first.');
/** 401 `external_login_failed` 'Invalid email or password' from the remote login (spec §4). */
export const externalLoginFailed = (): HttpError => new HttpError(401, EXTERNAL_ERROR.loginFailed, 'Invalid email or password');
