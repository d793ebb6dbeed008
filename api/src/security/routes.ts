/**
 * Route enumeration for the security suite (issue #8 "Route × role matrix"): walks an Express 5 app's
 * router stack — `app.router.stack`, each layer's `route` (method + path) and nested routers mounted with
 * `app.use(path, router)` — and returns every concrete `{ method, path }` pair, e.g.
 * `{ method: 'PUT', path: '/api/admin/applications/:id/status' }`. A router mounted twice is listed under
 * both mount paths. Paths are joined without trailing slashes ('/api/courses', not '/api/courses/').
 * Throws when a route or mount uses a RegExp path, because such a route could not be checked by name.
 */
import type { Express } from 'express';

export interface RouteInfo {
  /** Upper-case HTTP method, e.g. 'GET'. */
  method: string;
  /** Express path pattern with `:param` placeholders, e.g. '/api/courses/:id'. */
  path: string;
}

interface LayerLike {
  route?: { path: unknown; methods: Record<string, boolean>; stack?: unknown[] };
  handle?: { stack?: LayerLike[] } & ((...args: unknown[]) => unknown);
  rawPath?: unknown;
}

function joinPath(prefix: string, p: string): string {
  const joined = `${prefix}/${p}`.replace(/\/{2,}/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}

function pathsOf(raw: unknown, where: string): string[] {
  const list = Array.isArray(raw) ? raw.flat(Infinity) : [raw ?? '/'];
  return list.map((p) => {
    if (typeof p !== 'string') throw new Error(`Route enumeration: ${where} uses a non-string path (${String(p)}); use a string path so the security matrix can classify it.`);
    return p;
  });
}

function walk(stack: LayerLike[], prefix: string, out: RouteInfo[], depth: number): void {
  if (depth > 20) throw new Error('Route enumeration: routers nested more than 20 deep (a cycle?)');
  for (const layer of stack) {
    if (layer.route) {
      const methods = Object.keys(layer.route.methods).filter((m) => layer.route!.methods[m]);
      for (const p of pathsOf(layer.route.path, `a route under ${prefix || '/'}`)) {
        const path = joinPath(prefix, p);
        // `router.all()` is stored as `_all`: list it as ALL so the matrix still sees it.
        for (const m of methods) out.push({ method: m === '_all' ? 'ALL' : m.toUpperCase(), path });
      }
    } else if (layer.handle && Array.isArray(layer.handle.stack)) {
      for (const p of pathsOf(layer.rawPath, `a router mounted under ${prefix || '/'}`)) walk(layer.handle.stack, joinPath(prefix, p), out, depth + 1);
    }
  }
}

/** Every route of `app`, de-duplicated, in mount order. HEAD is implied by GET and not listed. */
export function listRoutes(app: Express): RouteInfo[] {
  const router = (app as unknown as { router?: { stack: LayerLike[] } }).router;
  if (!router) throw new Error('Route enumeration: app.router is missing (is this an Express 5 app?)');
  const out: RouteInfo[] = [];
  walk(router.stack, '', out, 0);
  const seen = new Set<string>();
  return out.filter((r) => {
    const k = `${r.method} ${r.path}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
