/**
 * SMS throughput through the outbox on PostgreSQL (issue #17 "Measure"): queues BENCH_SMS (default 3000)
 * messages in one transaction, then drains them with BENCH_SMS_WORKERS (default 2) workers — each with its own
 * connection pool, as two nodes would — through the `http` driver against the local BulkSMS stub (which answers
 * like the real API and takes BENCH_SMS_DELAY_MS, default 20 ms, per request, a conservative gateway round trip).
 * Messages go round-robin to BENCH_SMS_NUMBERS applicants (default 1: every message to one phone, whose messages are
 * sent in queue order by one node at a time, the worst case; 200 is closer to a real backlog).
 * Reports SMS per minute and gateway requests (up to 50 messages each), checks every message reached the gateway
 * exactly once, and counts order inversions (a phone getting a message before one queued earlier for it).
 * Uses a throw-away database on DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test).
 *
 *   node bench/sms.ts
 *   BENCH_SMS=600 BENCH_SMS_DELAY_MS=300 BENCH_SMS_NUMBERS=200 node bench/sms.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../api/src/db/client.ts';
import { users } from '../api/src/db/schema/users.ts';
import { drainSmsOutbox, queueSms } from '../api/src/sms/sms-outbox.ts';
import { bulkSmsDriver } from '../api/src/sms/sms-drivers.ts';
import { startBulkSmsStub } from '../api/src/test/bulksms.stub.ts';
import { statusSms } from '../api/src/sms/sms-text.ts';
import { freshPgDatabase, ROOT } from './lib.ts';

const N = Number(process.env.BENCH_SMS ?? 3000);
const WORKERS = Number(process.env.BENCH_SMS_WORKERS ?? 2);
const DELAY = Number(process.env.BENCH_SMS_DELAY_MS ?? 20);
const NUMBERS = Math.max(1, Number(process.env.BENCH_SMS_NUMBERS ?? 1));

const pgdb = await freshPgDatabase('bench_sms');
const stub = await startBulkSmsStub();
const nodes = [];
for (let i = 0; i < WORKERS; i++) nodes.push(await openDatabase({ url: pgdb.url }));
try {
  const db = nodes[0]!.db;
  const people = await db.insert(users).values(Array.from({ length: NUMBERS }, (_, k) => ({
    email: `sms.bench.${k}@example.com`, passwordHash: 'x', firstName: 'Sms', lastName: 'Bench', phone: `082 ${String(10_000_000 + k).slice(1, 4)} ${String(10_000_000 + k).slice(4)}`,
  }))).returning({ id: users.id });
  const q0 = performance.now();
  await db.transaction(async (tx) => {
    for (let i = 1; i <= N; i++) await queueSms(tx as any, { userId: people[i % NUMBERS]!.id, applicationId: i, kind: 'status', body: statusSms(i, 'under_review', `https://vsc.example/applications/${i}`) });
  });
  const queueMs = performance.now() - q0;
  stub.delayMs = DELAY;
  const driver = bulkSmsDriver({ baseUrl: stub.url, username: 'stub-token-id', password: 'stub-token-secret' });
  const t0 = performance.now();
  // Each node drains until nothing is pending (a batch can send none while another node holds a phone's older messages).
  const pending = async (node: Awaited<ReturnType<typeof openDatabase>>) => Number(((await node.db.execute(sql`SELECT count(*) AS n FROM sms_outbox WHERE status = 'pending'`)) as any).rows[0].n);
  const perNode = await Promise.all(nodes.map(async (node) => {
    let k = 0;
    while (await pending(node) > 0) { const s = await drainSmsOutbox(node.db, driver); k += s; if (!s) await new Promise((r) => setTimeout(r, 20)); }
    return k;
  }));
  const drainMs = performance.now() - t0;
  const sentRows = Number(((await db.execute(sql`SELECT count(*) AS n FROM sms_outbox WHERE status = 'sent'`)) as any).rows[0].n);
  const bodies = new Set(stub.received.map((m) => m.body));
  const last = new Map<string, number>();
  let inversions = 0;
  for (const m of stub.received) {
    const app = Number(/APP-(\d+)/.exec(m.body)?.[1]);
    if (app < (last.get(m.to) ?? 0)) inversions++;
    last.set(m.to, app);
  }
  const perMinute = Math.round(N / (drainMs / 60_000));
  const out = { date: new Date().toISOString(), messages: N, workers: WORKERS, gatewayDelayMs: DELAY, numbers: NUMBERS, queueMs: Math.round(queueMs), drainMs: Math.round(drainMs),
    smsPerMinute: perMinute, perWorker: perNode, gatewayCalls: stub.calls, gatewayMessages: stub.received.length, distinctDelivered: bodies.size, sentRows, inversions };
  console.log(`\nSMS outbox on PostgreSQL: ${N} messages to ${NUMBERS} number(s) queued in ${out.queueMs} ms (one transaction); drained by ${WORKERS} workers in ${out.drainMs} ms`
    + ` against a gateway answering in ${DELAY} ms → ${perMinute} SMS/min (per worker ${perNode.join(' / ')}); gateway calls ${stub.calls} carrying ${stub.received.length} messages, distinct delivered ${bodies.size}, rows sent ${sentRows}, order inversions ${inversions}`);
  if (stub.received.length !== N || bodies.size !== N || sentRows !== N) { console.error('NOT exactly once'); process.exitCode = 1; }
  if (inversions) { console.error('NOT in order for each phone'); process.exitCode = 1; }
  fs.mkdirSync(path.join(ROOT, 'bench/out'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'bench/out/sms.json'), JSON.stringify(out, null, 2));
} finally {
  await Promise.all(nodes.map((n) => n.close()));
  await stub.close();
  await pgdb.drop();
}
