/**
 * SMS gateways (issue #17), chosen by SMS_DRIVER:
 * - `file` (default): one JSON file per message, `{to, body, kind, applicationId, queuedId, at}`, in
 *   DATA_DIR/sms-outbox (the embedded mode's stand-in for a gateway, like the mail `.eml` outbox);
 * - `http`: BulkSMS's JSON REST API v1 (https://www.bulksms.com/developer/json/v1/): POST {SMS_API_URL}/messages
 *   with HTTP basic auth (token id / token secret) and body `[{to, body}]`; 201 answers an array of message
 *   objects whose `id` we keep, unless its `status.type` says it will not be delivered (FAILED …). Errors come as
 *   application/problem+json `{type, title, status, detail}`, 429 with `Retry-After`.
 *
 * `send` resolves to the gateway's message id, or throws SmsSendError whose `permanent` says whether a retry
 * could ever succeed (400/404/422 and friends, a message the gateway marked FAILED: no; 401/403/429/5xx/timeouts/
 * network: yes) and whose `gateway` says the failure is the gateway's rather than the message's (the outbox then
 * pauses sending instead of trying every queued message, api/src/sms/sms-outbox.ts).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import { writeFileAtomically } from '../mail/mailer.ts';
import { outboxPruner } from '../mail/outbox-files.ts';

export interface SmsMessage { to: string; body: string; kind?: string; applicationId?: number | null; queuedId?: number }
/** One message's outcome in a sendMany request: the gateway's message id, or why this message (alone) was refused. */
export type SmsSendResult = { id: string } | { error: SmsSendError };
/**
 * `send` one message, resolving to the gateway's id; `sendMany` (optional) several in one request, resolving to one
 * result per message in their order. Both reject with SmsSendError when the whole request failed.
 */
export interface SmsDriver { name: string; send(msg: SmsMessage): Promise<string>; sendMany?(msgs: SmsMessage[]): Promise<SmsSendResult[]> }

/**
 * A failed send: `permanent` true means retrying cannot help (BulkSMS 400, 404, 405, 409, 410, 413, 415, 422, or a 201
 * whose message has status FAILED), false means retry with back-off (401, 403, 429, 5xx, network, timeout).
 * `gateway` (default: not permanent) says the gateway, not this message, failed, so every other message would fail
 * the same way now; `retryAfterMs` is the gateway's Retry-After in ms (null when absent); `status` the HTTP status
 * (null for a network failure or timeout).
 */
export class SmsSendError extends Error {
  permanent: boolean;
  gateway: boolean;
  retryAfterMs: number | null;
  status: number | null;
  constructor(message: string, permanent: boolean, opts: { gateway?: boolean; retryAfterMs?: number | null; status?: number | null } = {}) {
    super(message);
    this.permanent = permanent;
    this.gateway = opts.gateway ?? !permanent;
    this.retryAfterMs = opts.retryAfterMs ?? null;
    this.status = opts.status ?? null;
  }
}

/**
 * A Retry-After header value in ms from `now`: delay-seconds ("120") or an HTTP date (RFC 9110 §10.2.3); null when
 * absent, unreadable or in the past; at most one day.
 */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  const ms = /^\d+$/.test(v) ? Number(v) * 1000 : Date.parse(v) - now;
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 86_400_000) : null;
}

/** BulkSMS message `status.type` values of a message on its way (https://www.bulksms.com/developer/json/v1/#tag/Message). */
/** Provider id recorded for messages BulkSMS accepted (201) in an answer that could not be matched to them. */
export const UNKNOWN_PROVIDER_ID = 'unknown';
const ON_ITS_WAY = new Set(['ACCEPTED', 'SCHEDULED', 'SENT', 'DELIVERED']);

/**
 * Writes each message to `dir` as `<time>-<queued id>-<random>.json`, complete or not at all (writeFileAtomically: a
 * temporary file renamed, removed on a write error such as a full disk), mode 0600 in a 0700 folder: a message may
 * hold a set-password link (security audit F1). Files older than OUTBOX_FILE_KEEP_MS (7 days) are removed when the
 * driver is made and then at most hourly as it sends (outboxPruner, privacy audit F8).
 */
export function fileSmsDriver(dir: string): SmsDriver {
  const prune = outboxPruner(dir, 'sms');
  prune();
  return {
    name: 'file',
    async send(msg) {
      prune();
      await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
      const id = `${Date.now()}-${msg.queuedId ?? 0}-${crypto.randomBytes(4).toString('hex')}`;
      await writeFileAtomically(path.join(dir, `${id}.json`), JSON.stringify({ to: msg.to, body: msg.body, kind: msg.kind ?? null, applicationId: msg.applicationId ?? null, queuedId: msg.queuedId ?? null, at: new Date().toISOString() }, null, 2));
      return id;
    },
  };
}

/** A network failure's code worth keeping (ECONNREFUSED, ENOTFOUND, UND_ERR_CONNECT_TIMEOUT …): capitals, digits and underscores. */
const ERROR_CODE = /^[A-Z][A-Z0-9_]{1,40}$/;

/**
 * Why a request to the gateway failed, for `last_error` and the logs: 'timeout', the system error code, or 'network
 * error'. Never the error's message: undici's quotes the URL, credentials and all ("Request cannot be constructed
 * from a URL that includes credentials: http://id:secret@…", security review).
 */
function networkFailure(err: any): string {
  if (err?.name === 'TimeoutError') return 'timeout';
  const code = err?.cause?.code ?? err?.code;
  return typeof code === 'string' && ERROR_CODE.test(code) ? code : 'network error';
}

/** A problem+json `title` kept as is: a short phrase of letters and spaces ("Bad Request", "Service Unavailable"). */
const PLAIN_TITLE = /^[A-Za-z][A-Za-z ,.'-]{0,59}$/;

/**
 * The text of a refused request: `BulkSMS <status> <title>`, the title being the problem+json `title` when it is a
 * plain phrase, else the status's standard reason (node:http STATUS_CODES). Never the `detail` or the answer's text: a
 * gateway (or a proxy's error page) may echo the request, with the recipient and a body holding a set-password link
 * (security review), and this text is stored in sms_outbox.last_error and logged.
 */
function refusal(status: number, body: unknown): string {
  const title = body && typeof body === 'object' ? (body as { title?: unknown }).title : undefined;
  const phrase = typeof title === 'string' && PLAIN_TITLE.test(title.trim()) ? title.trim() : STATUS_CODES[status] ?? 'error';
  return `BulkSMS ${status} ${phrase}`;
}

/** BulkSMS `status.type` / `status.subtype` words (FAILED, BLOCKED …) kept in an error; anything else is dropped. */
const STATUS_WORD = /^[A-Z][A-Z0-9_]{0,40}$/;

/** HTTP statuses after which the same request can never succeed. */
const PERMANENT = new Set([400, 404, 405, 409, 410, 413, 415, 422]);

/** Digits of a phone number, to match a BulkSMS answer (`to` without "+") to the message sent. */
const digits = (to: unknown) => String(to ?? '').replace(/\D/g, '');

/**
 * BulkSMS JSON API driver. `baseUrl` e.g. https://api.bulksms.com/v1; `timeoutMs` per request. `sendMany` posts up to
 * SMS_PER_REQUEST messages as one array (BulkSMS takes an array of messages per POST and answers one message object
 * per recipient, in order) and maps each answer back to its message by position, checking its `to`: an answer of
 * another length or order is a gateway failure (SmsSendError, not permanent). A message whose `status.type` says it
 * will not be delivered (FAILED …) gets a permanent SmsSendError as its result. Error texts hold the status and the
 * problem+json title (or the status's standard reason), never the answer's detail or text (refusal). Throws at once
 * when `baseUrl` holds credentials.
 */
export function bulkSmsDriver(opts: { baseUrl: string; username: string; password: string; timeoutMs?: number }): SmsDriver {
  const base = new URL(opts.baseUrl);
  if (base.username || base.password) throw new Error('SMS_API_URL must not hold credentials: set SMS_USERNAME and SMS_PASSWORD instead.');
  const auth = `Basic ${Buffer.from(`${opts.username}:${opts.password}`).toString('base64')}`;
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/messages`;
  const sendMany = async (msgs: SmsMessage[]): Promise<SmsSendResult[]> => {
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST', headers: { authorization: auth, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(msgs.map((m) => ({ to: m.to, body: m.body }))), signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
      });
    } catch (err: any) {
      throw new SmsSendError(`BulkSMS unreachable: ${networkFailure(err)}`, false, { gateway: true });
    }
    const text = await res.text();
    let body: any = null;
    try { body = JSON.parse(text); } catch { /* not JSON */ }
    if (res.status === 201 || res.status === 200) {
      const list: any[] = Array.isArray(body) ? body : [];
      if (list.length !== msgs.length || list.some((m, i) => !m?.id || (m.to != null && digits(m.to) !== digits(msgs[i]!.to)))) {
        // 201 Created is BulkSMS's "accepted": sending again would repeat every message of the request on each retry
        // (review: up to 50 × 36), so they count as sent, without an id. A 200 is not BulkSMS's answer to this call
        // (a proxy or wrong SMS_BASE_URL): nothing was accepted, so it is retried.
        if (res.status === 201) {
          console.error(`[sms] BulkSMS answered 201 but not with a message id for each of the ${msgs.length} message(s): recorded as sent without an id`);
          return msgs.map(() => ({ id: UNKNOWN_PROVIDER_ID }));
        }
        throw new SmsSendError(`BulkSMS answered ${res.status} without a message id for each message`, false, { gateway: true, status: res.status });
      }
      return list.map((m) => {
        const type = typeof m.status?.type === 'string' ? m.status.type.toUpperCase() : null;
        if (type && !ON_ITS_WAY.has(type)) {
          const subtype = typeof m.status?.subtype === 'string' ? m.status.subtype.toUpperCase() : '';
          const words = [type, subtype].filter((w) => STATUS_WORD.test(w)).join(' ');
          return { error: new SmsSendError(`BulkSMS refused message ${String(m.id).slice(0, 64)}: status ${words || 'not deliverable'}`, true, { status: res.status }) };
        }
        return { id: String(m.id) };
      });
    }
    const permanent = PERMANENT.has(res.status);
    throw new SmsSendError(refusal(res.status, body), permanent, { status: res.status, retryAfterMs: retryAfterMs(res.headers.get('retry-after')) });
  };
  return {
    name: 'http',
    sendMany,
    async send(msg) {
      const [r] = await sendMany([msg]);
      if ('error' in r!) throw r.error;
      return r!.id;
    },
  };
}

/** The driver the configuration asks for (SMS_DRIVER, default file under DATA_DIR/sms-outbox). */
export function smsDriverFromConfig(config: { SMS_DRIVER: 'file' | 'http'; SMS_API_URL: string; SMS_USERNAME?: string; SMS_PASSWORD?: string; dataDir: string }): SmsDriver {
  return config.SMS_DRIVER === 'http'
    ? bulkSmsDriver({ baseUrl: config.SMS_API_URL, username: config.SMS_USERNAME!, password: config.SMS_PASSWORD! })
    : fileSmsDriver(path.join(config.dataDir, 'sms-outbox'));
}
