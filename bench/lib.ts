/**
 * Shared helpers for benchmarks (bench/) and load/fault scripts (tests/load, tests/faults):
 * child-process servers, throw-away PostgreSQL databases, RSS sampling, autocannon runs, percentiles.
 * Units: milliseconds for latency, bytes for memory, requests per second for rates.
 */
import { fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import autocannon from 'autocannon';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const PG_BASE = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
export const ADMIN = { email: 'bench-admin@college.example', password: 'Bench-admin-2026' };

export interface Child { url: string; proc: ChildProcess; pid: number; stop(signal?: NodeJS.Signals): Promise<number | null> }

let portsHandedOut = 0;
/**
 * Port for a benchmark server: with BENCH_PORT set (an engineer given a port range on a shared machine), BENCH_PORT
 * for the first server started, BENCH_PORT + 1 for the second and so on (scripts that run two servers at once, e.g.
 * tests/faults/two-instances.ts, got the same port twice: EADDRINUSE); else 0, so the OS picks a free one (the child
 * reports its URL over IPC).
 */
export const benchPort = (): string => (process.env.BENCH_PORT ? String(Number(process.env.BENCH_PORT) + portsHandedOut++) : '0');

/** Starts api/src/server.ts in a child process with `env` added (PORT defaults to a bench port); resolves when it listens. */
export function startChild(env: Record<string, string | undefined>, opts: { quiet?: boolean; timeoutMs?: number } = {}): Promise<Child> {
  const port = env.PORT ?? benchPort();
  return new Promise((resolve, reject) => {
    const proc = fork(path.join(ROOT, 'bench/server-child.ts'), [], {
      cwd: ROOT, env: { ...process.env, NODE_ENV: 'production', SESSION_SECRET: 'bench-session-secret-0123456789abcdef', HOST: '127.0.0.1',
        // Production refuses a reserved sender domain (config.ts mailFromProblem); mail only goes to DATA_DIR/outbox.
        MAIL_FROM: '"Vhembe Skills College Admissions" <admissions@vhembe.ac.za>',
        ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, SITE_BUILD: 'never', DATABASE_URL: '', PORT: port,
        // Required in production (config.ts); callers behind a balancer pass the balancer's origin.
        PUBLIC_URL: port !== '0' ? `http://127.0.0.1:${port}` : 'http://127.0.0.1', ...env },
      stdio: opts.quiet === false ? ['ignore', 'inherit', 'inherit', 'ipc'] : ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    proc.stderr?.on('data', (d) => { stderr = (stderr + d).slice(-4000); });
    const timer = setTimeout(() => { proc.kill('SIGKILL'); reject(new Error(`server did not start in time: ${stderr}`)); }, opts.timeoutMs ?? 120_000);
    proc.once('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited (${code}) before listening: ${stderr}`)); });
    proc.once('message', (m: any) => {
      clearTimeout(timer);
      proc.removeAllListeners('exit');
      const exited = new Promise<number | null>((r) => proc.once('exit', (c) => r(c)));
      resolve({
        url: m.url, proc, pid: proc.pid!,
        stop: async (signal = 'SIGTERM') => {
          if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
          const force = setTimeout(() => { if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL'); }, 10_000);
          try { return await exited; } finally { clearTimeout(force); }
        },
      });
    });
  });
}

/** A fresh database on the PostgreSQL server; `drop()` removes it. */
export async function freshPgDatabase(prefix = 'bench'): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${crypto.randomBytes(5).toString('hex')}`;
  const c = new pg.Client({ connectionString: PG_BASE });
  await c.connect(); await c.query(`CREATE DATABASE ${name}`); await c.end();
  const u = new URL(PG_BASE); u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => { const d = new pg.Client({ connectionString: PG_BASE }); await d.connect(); await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`); await d.end(); },
  };
}

/** A fresh temporary DATA_DIR under /tmp. */
export function tmpDataDir(prefix = 'eng-f-bench'): string {
  return fs.mkdtempSync(path.join('/tmp', `${prefix}-`));
}

/** Current and peak resident set size of a process, in bytes (Linux /proc). */
export function rss(pid: number): { rss: number; peak: number } {
  const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** Samples RSS every 100 ms while `fn` runs; returns fn's result and the highest sample. */
export async function withRssPeak<T>(pid: number, fn: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = rss(pid).rss;
  const timer = setInterval(() => { try { peak = Math.max(peak, rss(pid).rss); } catch { /* exited */ } }, 100);
  try { return { result: await fn(), peak }; } finally { clearInterval(timer); }
}

export interface Cannon { rps: number; p50: number; p99: number; errors: number; non2xx: number; total: number }

/** One autocannon run. `rate` set = open-loop style fixed overall rate (autocannon -R). */
export async function cannon(opts: { url: string; connections?: number; duration?: number; rate?: number; method?: string; body?: string; headers?: Record<string, string> }): Promise<Cannon> {
  const r: any = await autocannon({
    url: opts.url, connections: opts.connections ?? 10, duration: opts.duration ?? 5, overallRate: opts.rate,
    method: (opts.method ?? 'GET') as any, body: opts.body, headers: opts.headers,
  });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx, total: r.requests.total };
}

/** p-th percentile (0–100) of `xs`. */
export function percentile(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

export const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;
export const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '—');

/** JSON request helper with a cookie jar of one cookie. */
export function client(base: string, headers: Record<string, string> = {}) {
  let cookie = '';
  return {
    get cookie() { return cookie; },
    async req(method: string, p: string, body?: unknown, extra: Record<string, string> = {}): Promise<{ status: number; body: any; ms: number }> {
      const t0 = performance.now();
      const isForm = body instanceof FormData;
      const res = await fetch(base + p, {
        method, body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
        headers: { ...(isForm || body === undefined ? {} : { 'content-type': 'application/json' }), ...(cookie ? { cookie } : {}), ...headers, ...extra },
      });
      const session = res.headers.getSetCookie().find((c) => c.startsWith('college.sid='));
      if (session) cookie = session.split(';')[0];
      const text = await res.text();
      let parsed: any = text;
      try { parsed = JSON.parse(text); } catch { /* not JSON */ }
      return { status: res.status, body: parsed, ms: performance.now() - t0 };
    },
  };
}

/** A small valid PDF, for uploads. */
export const PDF_BYTES = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

/** A valid application body (same shape as the API test harness's validApplication). */
export function applicationBody(courseId: number, idDocument: string, transcripts: string) {
  return {
    courseId, firstName: 'Thandi', lastName: 'Mokoena', email: 'thandi@example.com', phone: '0821234567',
    dateOfBirth: '2001-04-12', nationality: 'za', addressLine1: '12 Church Street', addressLine2: '', city: 'Thohoyandou',
    state: 'Limpopo', postalCode: '0950', country: 'za',
    academicHistory: { highSchool: { name: 'Mbilwi Secondary', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', qualification: 'NSC', grade: '72%' } },
    documents: { idDocument, transcripts },
    payment: { paymentMethod: 'card', cardNumber: '4242424242424242', cardExpiry: '12/28', cardCvc: '123', cardName: 'T Mokoena', paymentTerms: true },
    certification: true,
  };
}

let n = 0;
/** Registers (spoofing X-Forwarded-For, so start the server with TRUST_PROXY=1) and uploads one PDF; returns the client and upload id. */
export async function newApplicant(base: string) {
  const ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  const c = client(base, { 'x-forwarded-for': ip });
  const email = `load.${process.pid}.${Date.now()}.${++n}@example.com`;
  const reg = await c.req('POST', '/api/auth/register', { firstName: 'Load', lastName: 'Tester', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true });
  if (reg.status !== 201) return { c, email, status: reg.status, upload: null as string | null, userId: 0 };
  const form = new FormData();
  form.append('file', new Blob([PDF_BYTES], { type: 'application/pdf' }), 'id.pdf');
  const up = await c.req('POST', '/api/uploads', form);
  return { c, email, status: up.status, upload: up.status === 201 ? (up.body.upload.id as string) : null, userId: reg.body.user.id as number };
}
