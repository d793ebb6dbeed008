/**
 * A local stand-in for BulkSMS's JSON API v1 (https://www.bulksms.com/developer/json/v1/), for tests and the
 * SMS benchmark. POST /v1/messages with HTTP basic auth and a JSON array `[{to, body}]` answers 201 with
 * message objects `{id, type:'SENT', from, to, body, encoding:'TEXT', status:{type:'ACCEPTED',…}}`; errors use
 * BulkSMS's problem+json shape `{type, title, status, detail}`: 401 bad credentials, 400 invalid body/number.
 * `failNext(status, n, retryAfter)` makes the next n calls answer `status` (e.g. 503, 403 "insufficient credits", 400),
 * with a `Retry-After: retryAfter` header when given (BulkSMS sends one with 429); `statusNext(type, n)` gives the next
 * n messages (in the order received, across requests) `status.type` `type` in the 201 answer (e.g. FAILED: accepted
 * by the API, refused for delivery; not listed in `received`); `garbleNext(n)` accepts the next n requests (listed in
 * `received`) but answers 201 with a body that is not the message list; `delayMs` slows every answer. `perRequest` lists how
 * many messages each accepted POST carried. `received` lists every accepted message in order.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BulkSmsStub {
  url: string; received: { id: string; to: string; body: string }[]; calls: number; perRequest: number[];
  failNext(status: number, times?: number, retryAfter?: string): void; statusNext(type: string, times?: number): void; garbleNext(times?: number): void; delayMs: number; close(): Promise<void>;
}

const problem = (status: number, title: string, detail: string) => ({ type: `https://developer.bulksms.com/json/v1/errors#${title.toLowerCase().replace(/\s+/g, '-')}`, title, status, detail });
const TITLES: Record<number, [string, string]> = {
  400: ['Bad Request', 'The phone number is invalid'], 401: ['Unauthorized', 'Invalid credentials'],
  403: ['Forbidden', 'Insufficient credits'], 429: ['Too Many Requests', 'Rate limit exceeded'],
  500: ['Internal Server Error', 'Unexpected error'], 503: ['Service Unavailable', 'Try again later'],
};

/**
 * Starts the stub on 127.0.0.1 and a free port, accepting basic auth `creds`; resolves once listening. Tests and bench/sms.ts only.
 */
export async function startBulkSmsStub(creds = { username: 'stub-token-id', password: 'stub-token-secret' }): Promise<BulkSmsStub> {
  const failures: { status: number; retryAfter?: string }[] = [];
  const statuses: string[] = [];
  let garbled = 0;
  const stub: BulkSmsStub = {
    url: '', received: [], calls: 0, perRequest: [], delayMs: 0,
    failNext(status, times = 1, retryAfter) { for (let i = 0; i < times; i++) failures.push({ status, retryAfter }); },
    statusNext(type, times = 1) { for (let i = 0; i < times; i++) statuses.push(type); },
    garbleNext(times = 1) { garbled += times; },
    close: () => new Promise((r) => { server.close(() => r()); server.closeAllConnections(); }),
  };
  const expected = `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => { raw += d; });
    req.on('end', async () => {
      stub.calls++;
      if (stub.delayMs) await new Promise((r) => setTimeout(r, stub.delayMs));
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.url !== '/v1/messages') return send(404, problem(404, 'Not Found', 'No such resource'));
      if (req.headers.authorization !== expected) return send(401, problem(401, ...TITLES[401]!));
      const forced = failures.shift();
      if (forced) return send(forced.status, problem(forced.status, ...(TITLES[forced.status] ?? ['Error', 'Error'])), forced.retryAfter ? { 'retry-after': forced.retryAfter } : {});
      let list: any;
      try { list = JSON.parse(raw); } catch { return send(400, problem(400, 'Bad Request', 'Malformed JSON')); }
      if (!Array.isArray(list)) list = [list];
      if (list.some((m: any) => typeof m?.to !== 'string' || !/^\+?\d{8,15}$/.test(m.to) || typeof m.body !== 'string')) return send(400, problem(400, ...TITLES[400]!));
      stub.perRequest.push(list.length);
      const out = list.map((m: any) => {
        const id = crypto.randomBytes(8).toString('hex');
        const statusType = statuses.shift();
        if (statusType) return { id, type: 'SENT', to: m.to, body: m.body, status: { id: `${statusType}.BLOCKED`, type: statusType, subtype: 'BLOCKED' } };
        stub.received.push({ id, to: m.to, body: m.body });
        return { id, type: 'SENT', from: 'BulkSMS', to: m.to, body: m.body, encoding: 'TEXT', protocolId: 0, messageClass: 2, numberOfParts: 1, creditCost: 1,
          submission: { id: `1-${id}`, date: new Date().toISOString() }, status: { id: 'ACCEPTED.null', type: 'ACCEPTED', subtype: null } };
      });
      if (garbled > 0) { garbled--; res.writeHead(201, { 'content-type': 'application/json' }); return res.end('{"accepted":'); }
      send(201, out);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return stub;
}
