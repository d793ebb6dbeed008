/**
 * The error middleware and the tus endpoint's error mapping when storage runs out (operations audit: a full disk gave
 * a generic 500, and tus answered plain text "ENOSPC: no space left on device, write" with nothing in the log).
 */
import express from 'express';
import supertest from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { ERRORS as TUS_ERRORS } from '@tus/server';
import { errorHandler, OUT_OF_SPACE_MESSAGE, tusResponseError } from './error-handler.ts';

const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
/** drizzle's wrapper around a PostgreSQL disk_full error (the query and its parameters in the message). */
const diskFull = () => Object.assign(new Error("Failed query: insert into users (email) values ($1)\nparams: thabo@example.com"), {
  query: 'insert into users (email) values ($1)', params: ['thabo@example.com'],
  cause: Object.assign(new Error('could not extend file "base/16384/2619": No space left on device'), { code: '53100', severity: 'ERROR' }) });

function appThrowing(err: unknown) {
  const app = express();
  app.get('/api/x', () => { throw err; });
  app.use(errorHandler);
  return app;
}

describe('out of storage space', () => {
  it('ENOSPC → 507 with a clear message and a "DATA_DIR is full" log line', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const res = await supertest(appThrowing(enospc())).get('/api/x');
      expect(res.status).toBe(507);
      expect(res.body).toEqual({ error: { code: 'insufficient_storage', message: OUT_OF_SPACE_MESSAGE } });
      expect(error.mock.calls.map((c) => c.join(' ')).join('\n')).toMatch(/DATA_DIR is full/);
    } finally { error.mockRestore(); }
  });

  it('PostgreSQL 53100 disk_full (inside a drizzle error) → 507, logged without the query parameters', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const res = await supertest(appThrowing(diskFull())).get('/api/x');
      expect(res.status).toBe(507);
      expect(res.body.error.message).toBe(OUT_OF_SPACE_MESSAGE);
      const logged = error.mock.calls.map((c) => c.join(' ')).join('\n');
      expect(logged).toMatch(/disk is full/);
      expect(logged).not.toContain('thabo@example.com');
    } finally { error.mockRestore(); }
  });

  it('tus: an ENOSPC while writing an upload gets the API error shape, not the internal message', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const answer = tusResponseError({ method: 'PATCH', url: 'http://localhost/api/uploads/tus/abc' }, enospc());
      expect(answer?.status_code).toBe(507);
      expect(JSON.parse(answer!.body)).toEqual({ error: { code: 'insufficient_storage', message: OUT_OF_SPACE_MESSAGE } });
      expect(answer!.body).not.toContain('ENOSPC');
      // tus's own answers and ours (status below 500) are kept as they are.
      expect(tusResponseError({ method: 'PATCH', url: '/x' }, { status_code: 409, body: 'Upload-Offset conflict' })).toBeUndefined();
    } finally { error.mockRestore(); }
  });

  it("tus: each deliberate answer of @tus/server keeps its meaning: 4xx as tus sent it, 501 as not_implemented in the API's shape, none logged", () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      for (const [name, e] of Object.entries(TUS_ERRORS)) {
        const answer = tusResponseError({ method: 'POST', url: '/api/uploads/tus' }, e);
        if (e.status_code < 500) expect(answer, name).toBeUndefined();
        else if (e.status_code === 501) {
          expect(answer?.status_code, name).toBe(501);
          expect(JSON.parse(answer!.body), name).toEqual({ error: { code: 'not_implemented', message: e.body.trim() } });
        } else expect(answer?.status_code, name).toBe(500);
      }
      // Only tus's own 500s (UNKNOWN_ERROR, FILE_WRITE_ERROR, ERR_LOCK_TIMEOUT) are logged, each with its message.
      const logged = error.mock.calls.map((c) => c.join(' '));
      expect(logged).toHaveLength(Object.values(TUS_ERRORS).filter((e) => e.status_code === 500).length);
      expect(logged.join('\n')).toContain('tus 500: failed to acquire lock before timeout');
      expect(logged.join('\n')).not.toContain('undefined: undefined');
    } finally { error.mockRestore(); }
  });

  it('tus: our own answer in the API shape is kept whatever its status', () => {
    const ours = { status_code: 503, body: JSON.stringify({ error: { code: 'unavailable', message: 'Try again' } }) };
    expect(tusResponseError({ method: 'PATCH', url: '/api/uploads/tus/abc' }, ours)).toBeUndefined();
  });
});
