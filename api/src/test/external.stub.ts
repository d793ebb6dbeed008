/**
 * A stub of the remote administration system for tests: the README's http driver contract, in memory,
 * on 127.0.0.1 and a free port. `mode` switches it to slow (answers after `delayMs`) or failing (500);
 * `close()` makes it unreachable. Credentials: remote@college.example / remote-pass-1.
 */
import http from 'node:http';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';

export const STUB_ACCOUNT = { email: 'remote@college.example', password: 'remote-pass-1' };

export interface StubRemote {
  url: string;
  mode: 'ok' | 'slow' | 'error';
  delayMs: number;
  /** Every request the stub received: method, path (with query), headers. */
  requests: { method: string; path: string; headers: http.IncomingHttpHeaders; body: any }[];
  payments: any[];
  tokens: Set<string>;
  close(): Promise<void>;
}

/**
 * Starts the stub remote on 127.0.0.1 and a free port with two branches and no students; resolves once listening (tests only).
 */
export async function startStubRemote(): Promise<StubRemote> {
  const branches = [
    { id: 'B1', name: 'Remote North', location: '1 North Road', established: 2001 },
    { id: 'B2', name: 'Remote South', location: '2 South Road', established: 2010 },
  ];
  const students = [
    { id: 'S1', name: 'Lerato Dube', email: 'lerato@example.com', phone: '0820000001', address: null, campus: 'Remote North', branchId: 'B1', course: 'Diploma in IT', status: 'active', enrollmentDate: '2024-02-01' },
    { id: 'S2', name: 'Sipho Nkosi', email: 'sipho@example.com', phone: null, address: null, campus: 'Remote South', branchId: 'B2', course: 'Certificate in Business', status: 'graduated', enrollmentDate: '2022-02-01' },
  ];
  const byKey = new Map<string, any>();
  const stub: StubRemote = {
    url: '', mode: 'ok', delayMs: 0, requests: [], payments: [], tokens: new Set(),
    close: async () => { await new Promise<void>((r) => { server.close(() => r()); server.closeAllConnections(); }); },
  };
  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const view = ({ branchId: _b, ...s }: any) => s;
  const branchView = (b: any) => ({ ...b, studentCount: students.filter((s) => s.branchId === b.id && s.status === 'active').length });

  const server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = raw ? JSON.parse(raw) : null;
    const url = new URL(req.url!, 'http://stub');
    stub.requests.push({ method: req.method!, path: url.pathname + url.search, headers: req.headers, body });
    if (stub.mode === 'slow') await new Promise((r) => setTimeout(r, stub.delayMs));
    if (res.destroyed) return;
    if (stub.mode === 'error') return send(res, 500, { error: { code: 'boom', message: 'internal' } });
    const p = url.pathname;
    if (p === '/health') return send(res, 200, { status: 'OK' });
    if (p === '/auth/login' && req.method === 'POST') {
      if (body?.email !== STUB_ACCOUNT.email || body?.password !== STUB_ACCOUNT.password) return send(res, 401, { error: { code: 'unauthorized', message: 'bad credentials' } });
      const token = crypto.randomBytes(16).toString('hex');
      stub.tokens.add(token);
      return send(res, 200, { token, user: { id: 'U1', email: STUB_ACCOUNT.email, name: 'Remote Clerk' } });
    }
    const token = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
    if (!stub.tokens.has(token)) return send(res, 401, { error: { code: 'unauthorized', message: 'token required' } });
    if (p === '/auth/logout' && req.method === 'POST') { stub.tokens.delete(token); return send(res, 200, { ok: true }); }
    if (p === '/branches') return send(res, 200, { branches: branches.map(branchView) });
    const m = /^\/branches\/([^/]+)\/students$/.exec(p);
    if (m) {
      const b = branches.find((x) => x.id === decodeURIComponent(m[1]));
      if (!b) return send(res, 404, { error: { code: 'not_found', message: 'no such branch' } });
      return send(res, 200, { branch: branchView(b), students: students.filter((s) => s.branchId === b.id).map(view) });
    }
    if (p === '/students' && req.method === 'GET') {
      const q = (url.searchParams.get('search') ?? '').toLowerCase();
      const st = url.searchParams.get('status') ?? '';
      return send(res, 200, { students: students.filter((s) => (!q || s.name.toLowerCase().includes(q)) && (!st || s.status === st)).map(view) });
    }
    if (p === '/payments' && req.method === 'GET') return send(res, 200, { payments: [...stub.payments].reverse() });
    if (p === '/payments' && req.method === 'POST') {
      const key = req.headers['idempotency-key'] as string | undefined;
      if (key && byKey.has(key)) return send(res, 200, { payment: byKey.get(key) });
      const s = students.find((x) => x.id === body.studentId);
      if (!s) return send(res, 404, { error: { code: 'not_found', message: 'no such student' } });
      const payment = {
        id: `P${stub.payments.length + 1}`, reference: body.reference ?? `R-${stub.payments.length + 1}`, studentName: s.name, studentId: s.id,
        amount: body.amount, currency: body.currency, method: body.method, date: new Date().toISOString(), status: 'completed',
        branchName: s.campus, description: body.description ?? null,
      };
      stub.payments.push(payment);
      if (key) byKey.set(key, payment);
      return send(res, 201, { payment });
    }
    send(res, 404, { error: { code: 'not_found', message: 'not found' } });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return stub;
}
