/**
 * Hashed `/_astro/` files through the balancer while nodes have different builds (a rolling deploy, or the seconds
 * after a publish before every node has switched): HAProxy's `astro_files` backend (haproxy.ts) retries a 404 on
 * the other node, so every request for a file that one node has answers 200.
 * `checkAstroFiles` is a step of the scale test (two-nodes.ts, on real nodes). Run on its own,
 * `npx node tests/scale/astro-retry.ts` starts two small nodes that serve two different builds with the server's own
 * static middleware (api/src/site-build/serve.ts) behind HAProxy with the project's configuration; it needs
 * neither PostgreSQL nor a site build (a few seconds). Exits 0 when every request answered 200 (or haproxy is
 * missing: skipped, with the reason), 1 otherwise.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { siteMiddleware } from '../../api/src/site-build/serve.ts';
import { HAPROXY, haproxyConfig, startHaproxy } from './haproxy.ts';

/** Requests for `paths` through the balancer at `lb`, `times` each: one row per path with answers by status and by node. */
export async function checkAstroFiles(lb: string, paths: string[], times = 10): Promise<{ path: string; ok: number; statuses: Record<string, number>; servedBy: Record<string, number> }[]> {
  const rows = [];
  for (const p of paths) {
    const statuses: Record<string, number> = {};
    const servedBy: Record<string, number> = {};
    for (let i = 0; i < times; i++) {
      const res = await fetch(`${lb}${p}`);
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      const by = res.headers.get('x-served-by') ?? '-';
      servedBy[by] = (servedBy[by] ?? 0) + 1;
    }
    rows.push({ path: p, ok: statuses[200] ?? 0, statuses, servedBy });
  }
  return rows;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const p = (s.address() as net.AddressInfo).port; s.close(() => resolve(p)); });
  });
}

/** A node's live build with a page, the 404 page and the chunks `chunks` (names under _astro/). */
function build(root: string, node: string, chunks: string[]): string {
  const dir = path.join(root, node, 'site', 'builds', `1-${node}`);
  fs.mkdirSync(path.join(dir, '_astro'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><h1>Node ${node}</h1>`);
  fs.writeFileSync(path.join(dir, '404.html'), '<!doctype html><h1>Page Not Found</h1>');
  for (const c of chunks) fs.writeFileSync(path.join(dir, '_astro', c), `export const node = '${node}';`);
  return dir;
}

async function main(): Promise<number> {
  const log = (m: string) => console.info(`[astro-retry] ${m}`);
  if (!fs.existsSync(HAPROXY)) { log(`SKIPPED: haproxy not found at ${HAPROXY} (apt-get install haproxy).`); return 0; }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'astro-retry-'));
  // Node a runs the new code (ApplyWizard.new), node b the old (ApplyWizard.old); both have the shared chunk.
  const dirs = { a: build(root, 'a', ['ApplyWizard.new.js', 'preact.same.js']), b: build(root, 'b', ['ApplyWizard.old.js', 'preact.same.js']) };
  const servers: Server[] = [];
  let lb: Awaited<ReturnType<typeof startHaproxy>> | undefined;
  try {
    const ports = { a: await freePort(), b: await freePort(), lb: await freePort(), one: await freePort() };
    for (const name of ['a', 'b'] as const) {
      const app = express();
      app.get('/api/colfront/health', (_req, res) => { res.json({ status: 'ok' }); });
      app.use(siteMiddleware({ dir: () => dirs[name] }));
      servers.push(await new Promise<Server>((resolve) => { const s = app.listen(ports[name], '127.0.0.1', () => resolve(s)); }));
    }
    lb = await startHaproxy(haproxyConfig({ port: ports.lb, onePort: ports.one, nodes: [{ name: 'a', port: ports.a }, { name: 'b', port: ports.b }] }), root);
    const LB = `http://127.0.0.1:${ports.lb}`;
    // Both nodes in rotation (HAProxy starts servers as up, then `rise 2` after a failure; wait for both anyway).
    const end = Date.now() + 20_000;
    const seen = new Set<string | null>();
    while (seen.size < 2 && Date.now() < end) {
      const res = await fetch(`${LB}/`);
      await res.arrayBuffer();
      seen.add(res.headers.get('x-served-by'));
    }
    const rows = await checkAstroFiles(LB, ['/_astro/ApplyWizard.new.js', '/_astro/ApplyWizard.old.js', '/_astro/preact.same.js'], 20);
    for (const r of rows) log(`${r.path}: ${r.ok}/20 answered 200 (statuses ${JSON.stringify(r.statuses)}, served by ${JSON.stringify(r.servedBy)})`);
    const missing = await checkAstroFiles(LB, ['/_astro/Nowhere.js'], 2);
    log(`a file no node has: ${JSON.stringify(missing[0].statuses)}`);
    const passed = rows.every((r) => r.ok === 20) && missing[0].statuses[404] === 2;
    log(passed ? 'PASS: every request for a file one node has answered 200; a file no node has answered 404' : 'FAIL');
    return passed ? 0 : 1;
  } finally {
    await lb?.stop();
    for (const s of servers) await new Promise((r) => s.close(r));
    fs.rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(await main());
