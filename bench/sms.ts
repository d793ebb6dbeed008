/**
 * SMS throughput through the outbox on PostgreSQL (issue #17 "Measure"): queues BENCH_SMS (default 3000)
 * messages in one transaction, then drains them with BENCH_SMS_WORKERS (default 2) workers — each with its own
 * connection pool, as two nodes would — through the `http` driver against the local BulkSMS stub (which answers
 * like the real API and takes BENCH_SMS_DELAY_MS, default 20 ms, per request, a conservative gateway round trip).
 * Reports SMS per minute and checks every message reached the gateway exactly once.
 * Uses a throw-away database on DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test).
 *
 *   node bench/sms.ts
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

const pgdb = await freshPgDatabase('bench_sms');
const stub = await startBulkSmsStub();
const nodes = [];
for (let i = 0; i < WORKERS; i++) nodes.push(await openDatabase({ url: pgdb.url }));
try {
  const db = nodes[0]!.db;
  const [u] = await db.insert(users).values({ email: 'sms.bench@example.com', passwordHash: 'x', firstName: 'Sms', lastName: 'Bench', phone: '082 123 4567' }).returning({ id: users.id });
  const q0 = performance.now();
  await db.transaction(async (tx) => {
    for (let i = 1; i <= N; i++) await queueSms(tx as any, { userId: u!.id, applicationId: i, kind: 'status', body: statusSms(i, 'under_review', `https://vsc.example/applications/${i}`) });
  });
  const queueMs = performance.now() - q0;
  stub.delayMs = DELAY;
  const driver = bulkSmsDriver({ baseUrl: stub.url, username: 'stub-token-id', password: 'stub-token-secret' });
  const t0 = performance.now();
  const perNode = await Promise.all(nodes.map(async (node) => { let k = 0; for (let s; (s = await drainSmsOutbox(node.db, driver)) > 0;) k += s; return k; }));
  const drainMs = performance.now() - t0;
  const sentRows = Number(((await db.execute(sql`SELECT count(*) AS n FROM sms_outbox WHERE status = 'sent'`)) as any).rows[0].n);
  const bodies = new Set(stub.received.map((m) => m.body));
  const perMinute = Math.round(N / (drainMs / 60_000));
  const out = { date: new Date().toISOString(), messages: N, workers: WORKERS, gatewayDelayMs: DELAY, queueMs: Math.round(queueMs), drainMs: Math.round(drainMs),
    smsPerMinute: perMinute, perWorker: perNode, gatewayCalls: stub.calls, distinctDelivered: bodies.size, sentRows };
  console.log(`\nSMS outbox on PostgreSQL: ${N} messages queued in ${out.queueMs} ms (one transaction); drained by ${WORKERS} workers in ${out.drainMs} ms`
    + ` against a gateway answering in ${DELAY} ms → ${perMinute} SMS/min (per worker ${perNode.join(' / ')}); gateway calls ${stub.calls}, distinct delivered ${bodies.size}, rows sent ${sentRows}`);
  if (stub.calls !== N || bodies.size !== N || sentRows !== N) { console.error('NOT exactly once'); process.exitCode = 1; }
  fs.mkdirSync(path.join(ROOT, 'bench/out'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'bench/out/sms.json'), JSON.stringify(out, null, 2));
} finally {
  await Promise.all(nodes.map((n) => n.close()));
  await stub.close();
  await pgdb.drop();
}
