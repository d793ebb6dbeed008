/**
 * Server configuration, parsed once from the environment with zod.
 * Throws ConfigError with a message naming the variable to set (issue #2 "Bad input").
 */
import { z } from 'zod';
import path from 'node:path';
import fs from 'node:fs';
import crypto from 'node:crypto';
import { defaultMailFrom } from './mail/messages.ts';

/** A bad or missing environment variable; `message` names the variable and what to set. Caught by the CLI to exit 1 without a stack. */
export class ConfigError extends Error {}

/** An empty variable counts as unset (`S3_ENDPOINT=` in a shell script). */
function blankToUndefined<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema);
}

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  HOST: z.string().default('localhost'),
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: z.string().optional().transform((v) => (v && v.trim() ? v.trim() : undefined)),
  SESSION_SECRET: z.string().optional(),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(6).optional(),
  PUBLIC_URL: z.string().url().optional(),
  TRUST_PROXY: z.string().optional(),
  SMTP_URL: z.string().optional(),
  /**
   * SMTP connection, greeting and socket timeouts, ms (nodemailer's default socket timeout is 10 min: a relay that
   * accepts and then hangs held the mail worker, and a stop, that long; operations audit).
   */
  SMTP_TIMEOUT_MS: blankToUndefined(z.coerce.number().int().min(100).max(600_000).default(20_000)),
  /** Parallel SMTP connections of the pool (deliverability audit #6: a 199-mail announcement opened 202 connections). */
  SMTP_MAX_CONNECTIONS: blankToUndefined(z.coerce.number().int().min(1).max(50).default(2)),
  /** Messages sent over one pooled SMTP connection before it is closed and a new one opened. */
  SMTP_MAX_MESSAGES: blankToUndefined(z.coerce.number().int().min(1).max(10_000).default(100)),
  /** At most this many mails a minute over SMTP (a relay's or provider's sending limit); unset, no limit. */
  SMTP_RATE_PER_MINUTE: blankToUndefined(z.coerce.number().int().min(1).max(1_000_000).optional()),
  /**
   * The sender; unset, '"{college name} Admissions" <admissions@college.example>' from content/site.json (defaultMailFrom).
   * Required in production, on a domain the college can publish SPF/DKIM/DMARC for (mailFromProblem; deliverability audit #3).
   */
  MAIL_FROM: blankToUndefined(z.string().optional()),
  /**
   * Envelope sender (RFC 5321 MAIL FROM, the Return-Path) of SMTP mail, where bounces go; unset, the MAIL_FROM address
   * (admissions@ got every bounce; deliverability audit #7).
   */
  MAIL_BOUNCE_ADDRESS: blankToUndefined(z.string().email('must be an e-mail address (bounces@…)').optional()),
  /**
   * DKIM signing of SMTP mail (RFC 6376; deliverability audit #5): the signing domain (`d=`, normally MAIL_FROM's domain
   * so DMARC aligns), the selector (`s=`: the key is published at `<selector>._domainkey.<domain>`) and the private key.
   * All three or none.
   */
  MAIL_DKIM_DOMAIN: blankToUndefined(z.string().regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, 'must be a domain name (college.ac.za)').optional()),
  /** The DKIM selector (`s=`), a DNS label such as `portal2026`. */
  MAIL_DKIM_SELECTOR: blankToUndefined(z.string().regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i, 'must be a DNS label (portal2026)').optional()),
  /** The DKIM private key, PEM (RSA or Ed25519; `\n` escapes allowed); never logged. Or MAIL_DKIM_PRIVATE_KEY_FILE. */
  MAIL_DKIM_PRIVATE_KEY: blankToUndefined(z.string().optional()),
  /** A file holding the DKIM private key (PEM), read once at start; instead of MAIL_DKIM_PRIVATE_KEY. */
  MAIL_DKIM_PRIVATE_KEY_FILE: blankToUndefined(z.string().optional()),
  OFFICE_EMAIL: z.string().default('info@college.example'),
  SITE_BUILD: z.enum(['auto', 'always', 'never']).default('auto'),
  SITE_BUILD_HOOK_URL: z.string().url().optional(),
  SITE_BUILD_DEBOUNCE_MS: z.coerce.number().int().min(0).default(1500),
  CONTENT_POLL_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
  EXTERNAL_DRIVER: z.enum(['local', 'http']).default('local'),
  EXTERNAL_API_URL: z.string().url().optional(),
  PORTAL_ACCESS_URL: z.string().url().default('https://portal.college.example/'),
  APPLICATION_FEE: z.string().regex(/^\d+\.\d{2}$/).default('50.00'),
  /**
   * Failed logins per account per 15 min before every login to it needs the altcha proof-of-work; the per-IP,
   * per-account+IP and flood limits derive from it (login-throttle.ts loginLimits). ASVS 5.0 V2.2.1: many people share
   * one address (mobile carrier NAT, school lab), so the answer is a proof-of-work, never a lock-out.
   */
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(100),
  /**
   * Created accounts per IP per REGISTER_WINDOW_MS before a proof-of-work challenge is asked (issue #12; ASVS 5.0
   * V2.2.1: a school lab registers 30 learners from one address, so no refusal, and refused forms do not count).
   */
  REGISTER_SOFT_LIMIT: z.coerce.number().int().min(0).default(20),
  REGISTER_WINDOW_MS: z.coerce.number().int().min(1000).default(60 * 60_000),
  /** PBKDF2 iterations per attempt of the registration challenge (~256 attempts expected). */
  REGISTER_POW_COST: z.coerce.number().int().min(1).default(5000),
  SMS_DRIVER: z.enum(['file', 'http']).default('file'),
  SMS_API_URL: z.string().url().default('https://api.bulksms.com/v1'),
  SMS_USERNAME: z.string().optional(),
  SMS_PASSWORD: z.string().optional(),
  SMS_WEBHOOK_SECRET: z.string().min(16, 'SMS_WEBHOOK_SECRET must be at least 16 characters').optional(),
  // Document store (issue #13): local disk under DATA_DIR (one node) or an S3-compatible service (several nodes).
  DOCUMENT_STORE: z.enum(['local', 's3']).optional(),
  S3_ENDPOINT: blankToUndefined(z.string().url().optional()),
  S3_BUCKET: blankToUndefined(z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid bucket name').optional()),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: blankToUndefined(z.string().optional()),
  S3_SECRET_ACCESS_KEY: blankToUndefined(z.string().optional()),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false', '1', '0', '']).optional().transform((v) => v === 'true' || v === '1'),
  /**
   * Graceful stop, ms: how long health answers 503 (so a balancer takes the node out) before the node stops accepting
   * connections. Default DEFAULT_SHUTDOWN_GRACE_MS (8 000) with DATABASE_URL (several nodes possible), 0 on the
   * embedded database (one process).
   */
  SHUTDOWN_GRACE_MS: blankToUndefined(z.coerce.number().int().min(0).max(600_000).optional()),
  /** Graceful stop, ms: how long requests in flight may still run after the node stopped accepting connections. */
  SHUTDOWN_TIMEOUT_MS: blankToUndefined(z.coerce.number().int().min(0).max(600_000).default(10_000)),
  /** `1`: this node's SESSION_SECRET replaces the one the other nodes on this database use (auth/session-secret.ts). */
  SESSION_SECRET_ROTATE: z.enum(['0', '1', 'true', 'false', '']).optional().transform((v) => v === '1' || v === 'true'),
});

/**
 * Mail domains nobody can publish SPF, DKIM or DMARC records for, so mail from them fails sender authentication
 * (Gmail and Yahoo refuse unauthenticated bulk senders since February 2024): the reserved top-level names `.example`,
 * `.invalid`, `.test`, `.localhost` (RFC 2606 §2, RFC 6761 §6) and the reserved second-level example.com/.net/.org
 * (RFC 2606 §3).
 */
const RESERVED_MAIL_DOMAIN = /(^|\.)(example|invalid|test|localhost|example\.com|example\.net|example\.org)$/;

/**
 * Why `mailFrom` (MAIL_FROM: 'addr@domain' or 'Name <addr@domain>') cannot be the production sender, as a one-line
 * ConfigError message naming what to set; undefined when it can. Unset would send as the college.example default.
 */
export function mailFromProblem(mailFrom: string | undefined): string | undefined {
  const hint = 'the college\'s own sending address, e.g. MAIL_FROM=\'"Vhembe Skills College Admissions" <admissions@vhembe.ac.za>\', on a domain with SPF, DKIM and DMARC records';
  if (!mailFrom) return `MAIL_FROM must be set in production: ${hint} (unset, mail would be sent as admissions@college.example, which fails sender authentication).`;
  const address = (/<([^<>]*)>\s*$/.exec(mailFrom)?.[1] ?? mailFrom).trim();
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1 || /\s/.test(address)) return `MAIL_FROM must be an e-mail address ('addr@domain' or 'Name <addr@domain>'), got '${mailFrom}': set ${hint}.`;
  const domain = address.slice(at + 1).toLowerCase().replace(/\.$/, '');
  if (RESERVED_MAIL_DOMAIN.test(domain)) return `MAIL_FROM uses the reserved domain ${domain}, which can never pass SPF/DKIM/DMARC: set ${hint}.`;
  return undefined;
}

/**
 * `p` as an absolute path; a relative `p` is taken from the folder the command was started in (README "Configuration":
 * DATA_DIR relative is "to the folder you start in"). That is INIT_CWD when set: npm sets it to the folder `npm start` /
 * `npm run …` was typed in, and runs the script itself from the package root, so process.cwd() would be the checkout.
 * Without INIT_CWD (node run directly) it is process.cwd(). Used for DATA_DIR, MAIL_DKIM_PRIVATE_KEY_FILE and the CLIs'
 * paths (backup --out, restore's archive, --data-dir, --erasures-from, db:to-postgres --data-dir).
 */
export function resolveFromStartDir(p: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.INIT_CWD || process.cwd(), p);
}

/** Loopback hosts, where an http PUBLIC_URL is allowed in production (the browser tests, benchmarks, a proxy on the same machine). */
const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

/** True when `publicUrl` is https:, or http: on a loopback host (localhost, 127.0.0.0/8, [::1]); deliverability audit #8. */
function publicUrlIsSecure(publicUrl: string): boolean {
  const u = new URL(publicUrl);
  if (u.protocol === 'https:') return true;
  return u.protocol === 'http:' && (LOOPBACK_HOSTS.has(u.hostname) || /^127\.\d+\.\d+\.\d+$/.test(u.hostname));
}

/**
 * What is wrong with SMS_API_URL, or undefined: credentials in it (user:password@) are refused always, since the URL
 * is quoted by fetch errors and logs, and the basic auth comes from SMS_USERNAME / SMS_PASSWORD; plain http to a host
 * other than loopback with SMS_DRIVER=http sends that basic auth and every message in clear text: refused in
 * production, a warning otherwise (a test stub on localhost / 127.0.0.1 is fine). The message never quotes the URL's
 * credentials. Source: security review (SMS gateway errors), ASVS 12.3.1 (TLS to external services).
 */
export function smsApiUrlProblem(url: string, driver: 'file' | 'http', nodeEnv: string): { refuse: boolean; message: string } | undefined {
  const u = new URL(url);
  if (u.username || u.password) {
    return { refuse: true, message: 'SMS_API_URL must not hold credentials (user:password@): remove them and set SMS_USERNAME and SMS_PASSWORD (the BulkSMS API token id and secret) instead.' };
  }
  if (driver === 'http' && !publicUrlIsSecure(url)) {
    const where = `${u.protocol}//${u.host}`;
    return nodeEnv === 'production'
      ? { refuse: true, message: `SMS_API_URL must be an https:// address in production (got ${where}): the BulkSMS token and every message would cross the network in clear text. Only a loopback host (localhost, 127.0.0.1, [::1]) may use http.` }
      : { refuse: false, message: `SMS_API_URL is plain http to ${where}: the BulkSMS token and every message cross the network in clear text; use https://.` };
  }
  return undefined;
}

/**
 * SHUTDOWN_GRACE_MS's default, ms, with DATABASE_URL: 8 000. The balancer must have taken the node out before the grace
 * ends, or it keeps sending requests into the node's refusal (503 `unavailable`, server.ts refuse). With README "Running
 * several nodes" (HAProxy `inter 1s fall 3`, `timeout check 5s`) the first failing check goes out within `inter` (1 s)
 * of health turning 503, the next ones `inter` apart, and under load a check may take up to `timeout check` (5 s): the
 * third failure, which takes the node out, can come inter × (fall − 1) + timeout check = 1 × 2 + 5 = 7 s after the
 * first failing check, so up to 8 s after health turns 503; 8 000 covers that. The earlier 4 000 covered only
 * inter × fall (3 s) with quick checks. QA, rolling restart of 2 nodes under 30–50 simulated applicants (2026-11-28):
 * with 4 000, 3 of 9 stops sent requests into the refusal (up to 34, once a Submit), and a probe saw the stopping node
 * still given requests 5 748 ms after SIGTERM.
 */
const DEFAULT_SHUTDOWN_GRACE_MS = 8000;

/** `sessionSecret`: SESSION_SECRET, or '' until startServer resolves the stored one (auth/session-secret.ts). */
export type Config = Omit<z.infer<typeof EnvSchema>, 'DOCUMENT_STORE' | 'SHUTDOWN_GRACE_MS' | 'MAIL_FROM'> & { MAIL_FROM: string; DOCUMENT_STORE: 'local' | 's3'; SHUTDOWN_GRACE_MS: number; dataDir: string; sessionSecret: string };

/**
 * Parses `env` (default process.env; README "Configuration"). Throws ConfigError naming what to set: invalid values,
 * and in production a missing SESSION_SECRET or PUBLIC_URL, an http PUBLIC_URL on a host other than loopback, and a
 * missing MAIL_FROM or one on a reserved domain (mailFromProblem); always, DKIM settings that are not all three or
 * none, or a DKIM key that cannot be read or loaded (the key is never quoted, and not enumerable on the result), and an
 * SMS_API_URL with credentials in it (or plain http to a non-loopback host in production; elsewhere a warning: smsApiUrlProblem). Outside production MAIL_FROM defaults to the college's name (defaultMailFrom). SHUTDOWN_GRACE_MS defaults to 8 000 ms with DATABASE_URL (DEFAULT_SHUTDOWN_GRACE_MS), 0 without.
 * `dataDir` is DATA_DIR made absolute from the folder started in (resolveFromStartDir: `env.INIT_CWD`, else the cwd);
 * the default `.data` from the cwd (the checkout, where npm runs scripts).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  if (c.NODE_ENV === 'production' && !c.SESSION_SECRET) {
    throw new ConfigError('SESSION_SECRET must be set in production (a random string of at least 16 characters, e.g. `openssl rand -hex 32`).');
  }
  if (c.NODE_ENV === 'production' && !c.PUBLIC_URL) {
    // Unset, e-mailed links take the origin of the request that caused them: behind a balancer, a node's own address.
    throw new ConfigError('PUBLIC_URL must be set in production: the public address of the site (e.g. https://apply.college.example), the same on every node. It is the origin of links in e-mails and SMS, canonical URLs and the same-origin check.');
  }
  if (c.NODE_ENV === 'production' && c.PUBLIC_URL && !publicUrlIsSecure(c.PUBLIC_URL)) {
    throw new ConfigError(`PUBLIC_URL must be an https:// address in production (got ${new URL(c.PUBLIC_URL).origin}): links in e-mails and SMS would be sent as plain http. Only a loopback host (localhost, 127.0.0.1, [::1]) may use http.`);
  }
  const mailFromIssue = c.NODE_ENV === 'production' ? mailFromProblem(c.MAIL_FROM) : undefined;
  if (mailFromIssue) throw new ConfigError(mailFromIssue);
  if (c.SESSION_SECRET && c.SESSION_SECRET.length < 16) {
    throw new ConfigError('SESSION_SECRET is too short: use at least 16 characters.');
  }
  if (c.DATABASE_URL && !/^postgres(ql)?:\/\//.test(c.DATABASE_URL)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL (or unset it to use the embedded database).');
  }
  if (c.EXTERNAL_DRIVER === 'http' && !c.EXTERNAL_API_URL) {
    throw new ConfigError('EXTERNAL_API_URL must be set when EXTERNAL_DRIVER=http.');
  }
  if (c.SMS_DRIVER === 'http' && (!c.SMS_USERNAME || !c.SMS_PASSWORD)) {
    throw new ConfigError('SMS_USERNAME and SMS_PASSWORD (the BulkSMS API token id and secret) must be set when SMS_DRIVER=http.');
  }
  const smsUrlIssue = smsApiUrlProblem(c.SMS_API_URL, c.SMS_DRIVER, c.NODE_ENV);
  if (smsUrlIssue?.refuse) throw new ConfigError(smsUrlIssue.message);
  if (smsUrlIssue) console.warn(`[config] ${smsUrlIssue.message}`);
  const dkimKey = dkimPrivateKey(c.MAIL_DKIM_PRIVATE_KEY, c.MAIL_DKIM_PRIVATE_KEY_FILE, env);
  if ([c.MAIL_DKIM_DOMAIN, c.MAIL_DKIM_SELECTOR, dkimKey].filter(Boolean).length % 3 !== 0) {
    throw new ConfigError('DKIM signing needs all three of MAIL_DKIM_DOMAIN, MAIL_DKIM_SELECTOR and MAIL_DKIM_PRIVATE_KEY (or MAIL_DKIM_PRIVATE_KEY_FILE), or none of them.');
  }
  const documentStore = c.DOCUMENT_STORE ?? (c.S3_BUCKET ? 's3' : 'local');
  if (documentStore === 's3' && !c.S3_BUCKET) {
    throw new ConfigError('S3_BUCKET must be set when DOCUMENT_STORE=s3 (with S3_ENDPOINT for a service other than AWS).');
  }
  if (Boolean(c.S3_ACCESS_KEY_ID) !== Boolean(c.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError('Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (then the AWS default credential chain is used).');
  }
  const config: Config = {
    ...c,
    MAIL_FROM: c.MAIL_FROM ?? defaultMailFrom(),
    DOCUMENT_STORE: documentStore,
    SHUTDOWN_GRACE_MS: c.SHUTDOWN_GRACE_MS ?? (c.DATABASE_URL ? DEFAULT_SHUTDOWN_GRACE_MS : 0),
    // The default `.data` stays in the checkout (npm runs scripts from there), whichever folder npm was typed in:
    // `cd api && npm start` must not open a new, empty college in api/.data (review, 2026-11-27).
    dataDir: env.DATA_DIR ? resolveFromStartDir(c.DATA_DIR, env) : path.resolve(c.DATA_DIR),
    sessionSecret: c.SESSION_SECRET ?? '',
  };
  // The key is there to be used, not shown: left out of console.log(config), JSON and object spreads.
  Object.defineProperty(config, 'MAIL_DKIM_PRIVATE_KEY', { value: dkimKey, enumerable: false });
  return config;
}

/**
 * The DKIM private key (PEM) from MAIL_DKIM_PRIVATE_KEY (`\n` escapes turned into line breaks) or the file
 * MAIL_DKIM_PRIVATE_KEY_FILE (relative to the folder started in: resolveFromStartDir with `env`), or undefined when neither is set. Throws ConfigError when both are set, the file cannot be
 * read, or the text is not a private key node:crypto can load; messages never quote the key.
 */
function dkimPrivateKey(inline: string | undefined, file: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (inline && file) throw new ConfigError('Set MAIL_DKIM_PRIVATE_KEY or MAIL_DKIM_PRIVATE_KEY_FILE, not both.');
  let pem = inline?.replace(/\\n/g, '\n');
  const from = file ? 'MAIL_DKIM_PRIVATE_KEY_FILE' : 'MAIL_DKIM_PRIVATE_KEY';
  if (file) {
    try { pem = fs.readFileSync(resolveFromStartDir(file, env), 'utf8'); } catch (err) {
      throw new ConfigError(`MAIL_DKIM_PRIVATE_KEY_FILE cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}: ${file}): set it to a readable PEM file.`);
    }
  }
  if (pem === undefined) return undefined;
  try { crypto.createPrivateKey(pem); } catch {
    throw new ConfigError(`${from} is not a PEM private key (-----BEGIN PRIVATE KEY----- or -----BEGIN RSA PRIVATE KEY-----).`);
  }
  return pem;
}
