/**
 * Nodes busy with a deadline-day burst answer their health check slowly (audit of 2026-11-26: under 400 applicants at
 * once both nodes took over 1 s, HAProxy's check timed out on both together and every request got 503 "No server is
 * available"). `checkBusyHealth` starts two small nodes whose `/api/colfront/health` answers after `healthDelayMs`
 * (1 500 ms by default) behind HAProxy with the project's configuration (haproxy.ts), waits `waitMs` (8 s: several
 * check rounds), then asks the balancer `times` times: with `timeout check 5s` every answer is 200.
 * A step of the scale test (two-nodes.ts); `npx node tests/scale/busy-health.ts` runs it alone (about 10 s, needs
 * haproxy but neither PostgreSQL nor a site build). Exits 0 when every request answered 200 (or haproxy is missing:
 * skipped, with the reason), 1 otherwise.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { HAPROXY, haproxyConfig, startHaproxy } from './haproxy.ts';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const p = (s.address() as net.AddressInfo).port; s.close(() => resolve(p)); });
  });
}

/** Answers through the balancer to nodes whose health is slow: `{ statuses: {status: count}, servedBy: {node: count} }`. */
export async function checkBusyHealth(opts: { healthDelayMs?: number; waitMs?: number; times?: number } = {}): Promise<{ statuses: Record<string, number>; servedBy: Record<string, number> }> {
  const { healthDelayMs = 1500, waitMs = 8000, times = 10 } = opts;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'busy-health-'));
  const servers: Server[] = [];
  let lb: Awaited<ReturnType<typeof startHaproxy>> | undefined;
  try {
    const ports = { a: await freePort(), b: await freePort(), lb: await freePort(), one: await freePort() };
    for (const name of ['a', 'b'] as const) {
      const app = express();
      app.get('/api/colfront/health', (_req, res) => { setTimeout(() => res.json({ status: 'ok' }), healthDelayMs); });
      app.get('/', (_req, res) => { res.send(`node ${name}`); });
      servers.push(await new Promise<Server>((resolve) => { const s = app.listen(ports[name], '127.0.0.1', () => resolve(s)); }));
    }
    lb = await startHaproxy(haproxyConfig({ port: ports.lb, onePort: ports.one, nodes: [{ name: 'a', port: ports.a }, { name: 'b', port: ports.b }] }), root);
    await new Promise((r) => setTimeout(r, waitMs));
    const statuses: Record<string, number> = {};
    const servedBy: Record<string, number> = {};
    for (let i = 0; i < times; i++) {
      const res = await fetch(`http://127.0.0.1:${ports.lb}/`);
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      const by = res.headers.get('x-served-by') ?? '-';
      servedBy[by] = (servedBy[by] ?? 0) + 1;
    }
    return { statuses, servedBy };
  } finally {
    await lb?.stop();
    for (const s of servers) { s.closeAllConnections(); await new Promise((r) => s.close(r)); }
    fs.rmSync(root, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const log = (m: string) => console.info(`[busy-health] ${m}`);
  if (!fs.existsSync(HAPROXY)) { log(`SKIPPED: haproxy not found at ${HAPROXY} (apt-get install haproxy).`); return 0; }
  const r = await checkBusyHealth();
  const passed = r.statuses[200] === 10;
  log(`${passed ? 'PASS' : 'FAIL'}: statuses ${JSON.stringify(r.statuses)}, served by ${JSON.stringify(r.servedBy)}`);
  return passed ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(await main());
