/**
 * Test helper (restore-marker.test.ts, cli/marker-check-errors.test.ts): a TCP proxy to the PostgreSQL server at
 * 127.0.0.1:5432 that can answer a chosen connection with a PostgreSQL error (a refused login, "starting up") or hold
 * it, so a test can make one connection of a command fail the way a real server would while the others get through.
 */
import net from 'node:net';

/** A PostgreSQL ErrorResponse message (severity FATAL) with SQLSTATE `code` and `message`, as the server sends it. */
export function errorResponse(code: string, message: string): Buffer {
  const fields = Buffer.concat([...[['S', 'FATAL'], ['V', 'FATAL'], ['C', code], ['M', message]].map(([t, v]) => Buffer.from(`${t}${v}\0`)), Buffer.from([0])]);
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

/**
 * A TCP proxy on 127.0.0.1 (a free port) to the PostgreSQL server at 127.0.0.1:5432. `onConnection(n)` (n from 1)
 * decides each connection: 'forward', { refuse } (the bytes to answer its start-up message with, then closed), or
 * { hold } (a promise: forwarded once it settles). Resolves to its port and `close()`, which cuts every connection.
 */
export async function startPgProxy(onConnection: (n: number) => 'forward' | { refuse: Buffer } | { hold: Promise<unknown> }): Promise<{ port: number; close(): Promise<void> }> {
  let count = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    const what = onConnection(++count);
    if (what !== 'forward' && 'refuse' in what) {
      client.once('data', () => client.end(what.refuse));
      return;
    }
    client.pause();
    const forward = () => {
      if (client.destroyed) return;
      const upstream = net.connect(5432, '127.0.0.1');
      sockets.add(upstream);
      upstream.on('close', () => { sockets.delete(upstream); client.destroy(); });
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    };
    if (what === 'forward') forward(); else what.hold.then(forward, forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise<void>((resolve) => { for (const s of sockets) s.destroy(); server.close(() => resolve()); }),
  };
}
