/**
 * Password-reset request timing, known vs unknown address (security audit F3, ASVS 5.0 V6 account enumeration: same
 * answer, same timing). Starts the production server (bench/lib.ts startChild) on BENCH_PORT (default 4443) with a
 * temporary DATA_DIR, on PGlite and on PostgreSQL (a throw-away database on DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test), registers N accounts, then sends N requests for addresses that have an
 * account and N for addresses that have none, interleaved in pairs whose order is drawn at random (seeded), one at
 * a time. Every address is asked once, so each known one does the full work (token, hash, outbox row) and no
 * per-address limit or live-link cap is reached; each request comes from its own X-Forwarded-For address
 * (TRUST_PROXY=loopback), so the per-IP flood ceiling (300 per 15 min) is not reached either.
 * Reports, per database, the median and p90 of the client-side round trip in milliseconds for each group and their
 * difference (known − unknown), and checks that every answer was 200 with one identical body. It also reports the
 * median of the request that came next after a known and after an unknown one: work left after an answer (the fix of
 * F3) can slow the next request instead, which an attacker sending two requests in a row could see.
 * BENCH_GAP_MS (default 0) waits between requests; BENCH_DB=pglite|postgres|both (default both); N=60 by default.
 *
 *   node bench/reset-timing.ts
 *   N=200 BENCH_DB=postgres node bench/reset-timing.ts
 */
import fs from 'node:fs';
import { freshPgDatabase, percentile, startChild, tmpDataDir, fmt, type Child } from './lib.ts';

const N = Number(process.env.N ?? 60);
const PORT = process.env.BENCH_PORT ?? '4443';
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 0);
const WHICH = process.env.BENCH_DB ?? 'both';
const WARM_UP = 10;

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so runs before and after a change use one order. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

let ipCounter = 0;
/** A new client address for X-Forwarded-For (10.x.y.z), one per request. */
const nextIp = () => { const n = ++ipCounter; return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`; };

/** POSTs `body` as JSON to `url` from a new client address; resolves to status, body text and round trip in ms. */
async function post(url: string, body: unknown): Promise<{ status: number; text: string; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': nextIp() }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, text, ms: performance.now() - t0 };
}

/** One database's figures: round trips (ms) of the known and unknown groups, and whether every answer matched. */
interface Run { kind: string; known: number[]; unknown: number[]; afterKnown: number[]; afterUnknown: number[]; bodies: Set<string>; statuses: Set<number> }

async function run(kind: 'pglite' | 'postgres'): Promise<Run> {
  const dataDir = tmpDataDir('reset-timing');
  const pg = kind === 'postgres' ? await freshPgDatabase('bench_reset_timing') : null;
  let child: Child | null = null;
  try {
    child = await startChild({ PORT, DATA_DIR: dataDir, DATABASE_URL: pg?.url ?? '', TRUST_PROXY: 'loopback', REGISTER_SOFT_LIMIT: '100000' });
    const base = child.url;
    const tag = `${process.pid}.${Date.now()}`;
    const known = Array.from({ length: N + WARM_UP }, (_, i) => `known.${tag}.${i}@example.com`);
    const unknown = Array.from({ length: N + WARM_UP }, (_, i) => `nobody.${tag}.${i}@example.com`);
    for (const email of known) {
      const r = await post(`${base}/api/auth/register`, { firstName: 'Reset', lastName: 'Timing', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true });
      if (r.status !== 201) throw new Error(`registration of ${email} answered ${r.status}: ${r.text.slice(0, 200)}`);
    }
    const url = `${base}/api/auth/reset-password`;
    const out: Run = { kind, known: [], unknown: [], afterKnown: [], afterUnknown: [], bodies: new Set(), statuses: new Set() };
    for (let i = 0; i < WARM_UP; i++) { await post(url, { email: known[N + i] }); await post(url, { email: unknown[N + i] }); }
    const random = rng(20261128);
    let previous: 'known' | 'unknown' | null = null;
    for (let i = 0; i < N; i++) {
      const pair: ['known' | 'unknown', string][] = [['known', known[i]!], ['unknown', unknown[i]!]];
      if (random() < 0.5) pair.reverse();
      for (const [group, email] of pair) {
        const r = await post(url, { email });
        out[group].push(r.ms);
        if (previous) (previous === 'known' ? out.afterKnown : out.afterUnknown).push(r.ms);
        previous = group;
        out.bodies.add(r.text);
        out.statuses.add(r.status);
        if (GAP_MS > 0) await new Promise((res) => setTimeout(res, GAP_MS));
      }
    }
    return out;
  } finally {
    await child?.stop();
    await pg?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const kinds = WHICH === 'both' ? (['pglite', 'postgres'] as const) : [WHICH as 'pglite' | 'postgres'];
console.log(`reset-request timing: N=${N} per group, interleaved in random pairs, gap ${GAP_MS} ms, port ${PORT}`);
console.log('database  | known median / p90 (ms) | unknown median / p90 (ms) | difference median / p90 (ms) | next request after known / after unknown, median (ms) | answers');
for (const kind of kinds) {
  const r = await run(kind);
  const km = percentile(r.known, 50), k90 = percentile(r.known, 90), um = percentile(r.unknown, 50), u90 = percentile(r.unknown, 90);
  const same = r.bodies.size === 1 && r.statuses.size === 1 ? `all ${[...r.statuses][0]}, one body` : `DIFFER: statuses ${[...r.statuses].join(',')}, ${r.bodies.size} bodies`;
  const next = `${fmt(percentile(r.afterKnown, 50), 2)} / ${fmt(percentile(r.afterUnknown, 50), 2)}`;
  console.log(`${kind.padEnd(9)} | ${fmt(km, 2)} / ${fmt(k90, 2)} | ${fmt(um, 2)} / ${fmt(u90, 2)} | ${fmt(km - um, 2)} / ${fmt(k90 - u90, 2)} | ${next} | ${same}`);
}
