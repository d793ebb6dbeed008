import { describe, expect, it } from 'vitest';
import express, { Router } from 'express';
import { listRoutes } from './routes.ts';
import { classify } from './policy.ts';
import { startTestApp } from '../test/harness.ts';

describe('route enumeration (ASVS 8.1.1: every route is known to the access-control matrix)', () => {
  it('V8.1.1 › lists routes of nested routers under every mount path, with methods, without trailing slashes', () => {
    const app = express();
    const inner = Router();
    inner.get('/', (_q, s) => s.end());
    inner.put('/:id/status', (_q, s) => s.end());
    const outer = Router();
    outer.use('/deep', inner);
    outer.route('/x').get((_q, s) => s.end()).post((_q, s) => s.end());
    app.use('/api/a', inner);
    app.use('/api/b', outer);
    app.use(['/api/c', '/api/d'], inner);
    app.delete('/api/top', (_q, s) => s.end());
    app.use('/api', (_q, _s, n) => n()); // plain middleware is not a route
    expect(listRoutes(app)).toEqual([
      { method: 'GET', path: '/api/a' }, { method: 'PUT', path: '/api/a/:id/status' },
      { method: 'GET', path: '/api/b/deep' }, { method: 'PUT', path: '/api/b/deep/:id/status' },
      { method: 'GET', path: '/api/b/x' }, { method: 'POST', path: '/api/b/x' },
      { method: 'GET', path: '/api/c' }, { method: 'PUT', path: '/api/c/:id/status' },
      { method: 'GET', path: '/api/d' }, { method: 'PUT', path: '/api/d/:id/status' },
      { method: 'DELETE', path: '/api/top' },
    ]);
  });

  it('V8.1.1 › refuses a RegExp route, which the matrix could not classify', () => {
    const app = express();
    app.get(/^\/api\/secret$/, (_q, s) => s.end());
    expect(() => listRoutes(app)).toThrow(/non-string path/);
  });

  it('V8.1.1 › finds the spec §7 routes in createApp, each classified by a rule', async () => {
    const t = await startTestApp({}, { seed: false });
    try {
      const routes = listRoutes(t.app);
      const keys = routes.map((r) => `${r.method} ${r.path}`);
      for (const k of ['GET /api/courses', 'GET /api/courses/:id', 'GET /api/colfront/courses', 'POST /api/auth/login', 'POST /api/colfront/auth/login',
        'GET /api/auth/me', 'GET /api/colfront/health', 'GET /api/applications', 'POST /api/applications', 'PUT /api/admin/applications/:id/status']) {
        expect(keys).toContain(k);
      }
      expect(classify({ method: 'PUT', path: '/api/admin/applications/:id/status' })?.access).toBe('admin');
      expect(classify({ method: 'GET', path: '/api/courses/:id' })?.access).toBe('public');
      expect(classify({ method: 'POST', path: '/api/courses' })?.access).toBe('admin');
      expect(classify({ method: 'GET', path: '/api/applications' })?.access).toBe('user');
      expect(classify({ method: 'GET', path: '/uploads/:id' })).toBeNull();
    } finally { await t.close(); }
  });
});
