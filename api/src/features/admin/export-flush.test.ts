/**
 * The CSV export starts at once whatever the encoding (performance audit item 2): with Accept-Encoding: br the
 * compression package's brotli held the headers and every byte until a large block filled, so "Export CSV" showed
 * nothing for 4–9 s at 100 000 applications. The keyset source is held after its first page here (the second read
 * waits for `release`): the headers and the first page's rows must arrive before it goes on.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import http from 'node:http';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import { startTestApp, signInAdmin, DB_KIND, type TestApp } from '../../test/harness.ts';

const gate = vi.hoisted(() => {
  let open!: () => void;
  const state = { held: false, opened: new Promise<void>((r) => { open = r; }), release: () => open() };
  return state;
});

vi.mock('./admin.repo.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('./admin.repo.ts')>();
  return {
    ...real,
    /** The real keyset pages, but the read after the first page waits for gate.release() (when gate.held). */
    async *exportAdminApplicationPages(...args: Parameters<typeof real.exportAdminApplicationPages>) {
      const pages = real.exportAdminApplicationPages(...args);
      const first = await pages.next();
      if (first.done) return;
      yield first.value;
      if (gate.held) await gate.opened;
      yield* pages;
    },
  };
});

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

describe(`applications CSV export with Accept-Encoding: br (${DB_KIND})`, () => {
  it('the headers and the first 1 000 rows arrive while the second page is still being read', async () => {
    const admin = await signInAdmin(t);
    // 1 500 applications: a full first page of 1 000 and a second of 500.
    await t.database.db.execute(sql`
      with u as (
        insert into users (email, password_hash, first_name, last_name)
        select 'flush-' || g || '@example.com', 'x', 'Flush', 'Flushtest' || lpad(g::text, 6, '0') from generate_series(1, 1500) g
        returning id)
      insert into applications (user_id, course_id, payment_amount) select u.id, (select min(id) from courses), 50 from u`);
    gate.held = true;
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(`${t.url}/api/admin/applications/export.csv?q=Flushtest`, { headers: { 'accept-encoding': 'br', authorization: `Bearer ${admin.token}` } }, resolve).on('error', reject);
    });
    // Here the second page has not been read (the source waits for gate.release()).
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const unbr = zlib.createBrotliDecompress();
    let text = '';
    const lines = () => text.split('\n').length - 1;
    const ended = new Promise((resolve, reject) => { unbr.on('end', resolve); unbr.on('error', reject); });
    // The header row and the whole first page, decoded before the second read (hangs until the test times out if not).
    await new Promise<void>((resolve) => {
      unbr.on('data', (chunk: Buffer) => { text += chunk.toString('utf8'); if (lines() >= 1001) resolve(); });
      res.pipe(unbr);
    });
    expect(lines()).toBe(1001);
    expect(text.match(/flush-\d+@example\.com/g)).toHaveLength(1000);
    gate.release();
    await ended;
    expect(lines()).toBe(1501);
    expect(new Set(text.match(/flush-\d+@example\.com/g)).size).toBe(1500);
  });
});
