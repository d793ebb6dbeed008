/**
 * The baseline for the API-read benchmark: a bare node:http server that answers each path in the JSON file
 * `BARE_ROUTES` ({ "/api/courses": "<body>", … }) with that exact body, and 404 otherwise. Reports
 * `{ url, pid }` over IPC like bench/server-child.ts.
 */
import http from 'node:http';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';

const routes: Record<string, string> = JSON.parse(fs.readFileSync(process.env.BARE_ROUTES!, 'utf8'));
const bodies = new Map(Object.entries(routes).map(([k, v]) => [k, Buffer.from(v)]));
const server = http.createServer((req, res) => {
  const body = bodies.get((req.url ?? '/').split('?')[0]);
  if (!body) { res.writeHead(404).end(); return; }
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length, 'cache-control': 'no-store' });
  res.end(body);
});
server.listen(Number(process.env.BARE_PORT ?? 4439), '127.0.0.1', () => {
  process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, pid: process.pid });
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
