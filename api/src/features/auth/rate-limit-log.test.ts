/**
 * Rate-limit hits in the log (operations audit: a login flood left no trace): one line per key per window, the
 * e-mail in a per-account key masked.
 */
import { describe, expect, it, vi } from 'vitest';
import type { NextFunction, Request, Response } from 'express';
import { tooMany } from './auth.routes.ts';

describe('rate-limit log line', () => {
  it('logs the first hit of a key in a window, masked, and not the next ones; answers 429 each time', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const handler = tooMany('Too many login attempts. Please try again later.');
      const req = { method: 'POST', baseUrl: '/api/auth', path: '/login', ip: '203.0.113.9', body: { email: 'thabo.rate@example.com' } } as unknown as Request;
      const options = { windowMs: 60_000, keyGenerator: (r: Request) => `acct:${String(r.body.email)}` };
      const errors: unknown[] = [];
      const next = ((e: unknown) => { errors.push(e); }) as NextFunction;
      await handler(req, {} as Response, next, options);
      await handler(req, {} as Response, next, options);
      expect(errors).toHaveLength(2);
      expect(errors.every((e: any) => e.status === 429 && e.code === 'rate_limited')).toBe(true);
      const lines = warn.mock.calls.map((c) => c.join(' ')).filter((l) => l.includes('rate limit'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('t***@example.com');
      expect(lines[0]).toContain('POST /api/auth/login');
      expect(lines[0]).not.toContain('thabo.rate');
    } finally { warn.mockRestore(); }
  });
});
