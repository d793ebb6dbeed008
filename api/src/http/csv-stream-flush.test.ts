/**
 * A streamed CSV starts at once whatever the encoding (performance audit item 2): with Accept-Encoding: br the
 * compression package's brotli held the headers and every byte until a large block filled, so "Export CSV" showed
 * nothing for 4–9 s at 100 000 applications. sendCsvStream (api-compression.ts), behind apiCompression as in the app,
 * with a source held after its first 1 000 records: the headers and those records must arrive before it goes on.
 * (The admin and payments exports call sendCsvStream; this drives it directly, without mocking modules, which the
 * shared-module test workers (vitest isolate: false) do not allow reliably.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import zlib from 'node:zlib';
import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { stringify } from 'csv-stringify';
import { apiCompression, sendCsvStream } from './api-compression.ts';

let release!: () => void;
const held = new Promise<void>((r) => { release = r; });

async function* records(): AsyncGenerator<string[]> {
  yield ['email', 'name'];
  for (let i = 1; i <= 1000; i++) yield [`flush-${i}@example.com`, `Flushtest ${i}`];
  await held;
  for (let i = 1001; i <= 1500; i++) yield [`flush-${i}@example.com`, `Flushtest ${i}`];
}

let server: http.Server;
let url: string;
beforeAll(async () => {
  const app = express();
  app.use('/api', apiCompression());
  app.get('/api/export.csv', async (_req, res) => {
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    await sendCsvStream(res, Readable.from(records()).pipe(stringify()), '[test] flush');
  });
  server = await new Promise<http.Server>((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => { server.closeAllConnections(); await new Promise((r) => server.close(r)); });

describe('sendCsvStream with Accept-Encoding: br', () => {
  it('the headers and the first 1 000 records arrive while the source still holds the rest', async () => {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(`${url}/api/export.csv`, { headers: { 'accept-encoding': 'br' } }, resolve).on('error', reject);
    });
    // Here the source has not gone past its first 1 000 records (it waits for release()).
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const unbr = zlib.createBrotliDecompress();
    let text = '';
    const lines = () => text.split('\n').length - 1;
    const ended = new Promise((resolve, reject) => { unbr.on('end', resolve); unbr.on('error', reject); });
    // The header row and the first 1 000 records, decoded while the source is held (hangs until the test times out if not).
    await new Promise<void>((resolve) => {
      unbr.on('data', (chunk: Buffer) => { text += chunk.toString('utf8'); if (lines() >= 1001) resolve(); });
      res.pipe(unbr);
    });
    expect(lines()).toBe(1001);
    expect(text.match(/flush-\d+@example\.com/g)).toHaveLength(1000);
    release();
    await ended;
    expect(lines()).toBe(1501);
    expect(new Set(text.match(/flush-\d+@example\.com/g)).size).toBe(1500);
  });
});
