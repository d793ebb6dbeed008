/**
 * createApp(deps): the Express application (API + the current static build), never listening itself.
 * Order: permissions policy → public cache fast path → compression of /api answers → security headers → body parsing (not
 * the submit call's: its route parses it after requireUser) → sessions/passport/bearer → same-origin check → /api routes
 * → API 404 → static site → error handler. See DESIGN §1 and §4.
 */
import express, { type Express } from 'express';
import helmet from 'helmet';
import type { AppDeps } from './deps.ts';
import { configurePassport, sessionMiddleware, sessionTimeouts, bearerAuth } from './auth/session.ts';
import { sameOrigin } from './http/same-origin.ts';
import { UNSUBSCRIBE_PATH } from './features/announcements/unsubscribe.ts';
import { errorHandler, notFoundApi } from './http/error-handler.ts';
import { mountRoutes } from './routes.ts';
import { jsonDepthLimit } from './http/json-depth.ts';
import { storableJsonText, storableQueryText } from './http/json-text.ts';
import { permissionsPolicy } from './http/permissions-policy.ts';
import { apiHeaders, apiNoStore } from './http/document-headers.ts';
import { createPublicCache } from './http/public-cache.ts';
import { siteMiddleware } from './site-build/serve.ts';
import { apiCompression } from './http/api-compression.ts';
import { isLargeSubmitPath, SMALL_JSON_LIMIT } from './features/applications/large-body.ts';
import { httpsFromPublicUrl } from './http/public-https.ts';

/**
 * The Express app for `deps` (not listening): permissions policy, public cache, helmet CSP, body parsing (JSON depth
 * limit), sessions, passport, bearer tokens, same-origin check, /api routes, API 404, static site, error handler (DESIGN §1, §4).
 */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', parseTrustProxy(deps.config.TRUST_PROXY));
  app.set('query parser', 'simple');
  // PUBLIC_URL https: every request counts as HTTPS (Secure cookies, HSTS) even when the proxy sends no X-Forwarded-Proto.
  app.use(httpsFromPublicUrl(deps.config));
  const cache = createPublicCache();
  deps.contentWatcher?.onChange(() => cache.clear());
  app.use(permissionsPolicy);
  // The fast path sends cached reads already encoded (public-cache.ts); behind compression they were re-gzipped per read.
  app.use(cache.fastPath);
  app.use('/api', apiCompression());

  app.use(helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", "'unsafe-inline'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
      },
    },
    strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    // Obeyed by no browser the portal supports (IE's download prompt, Flash/Acrobat policy files, the removed XSS
    // auditor): about 90 bytes of every page's answer (issue #17 data budget).
    xXssProtection: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
  }));
  // HSTS only means something over HTTPS; helmet sends it always, so drop it on plain HTTP.
  app.use((req, res, next) => { if (!req.secure) res.removeHeader('Strict-Transport-Security'); next(); });
  app.use('/api', apiHeaders);
  // Before the parsers and checks, so their refusals (400 bad JSON, 413, 401, 403) are no-store too.
  app.use('/api', apiNoStore);

  const pp = configurePassport(deps.database);
  // Spec §7 lets POST /api/applications carry its documents as data URLs (4 slots × 5 MB, base64 = 4/3): that one
  // call's body is parsed by its route, after requireUser, up to 28 MB (features/applications/large-body.ts). Parsed
  // here, before sessions, anyone could make the node read 28 MB bodies only to answer 401 (security audit 2026-11-28).
  const smallJson = express.json({ limit: SMALL_JSON_LIMIT });
  app.use('/api', (req, res, next) => (isLargeSubmitPath(req) ? next() : smallJson(req, res, next)));
  app.use('/api', jsonDepthLimit, storableJsonText, storableQueryText);
  app.use('/api', sessionMiddleware(deps.database, deps.config));
  app.use('/api', sessionTimeouts(deps.database));
  app.use('/api', pp.initialize());
  app.use('/api', pp.session());
  app.use('/api', bearerAuth(deps.database));
  // The one-click unsubscribe link (RFC 8058) is posted by mail providers from their own servers: its token authenticates it.
  const checkOrigin = sameOrigin({ publicUrl: deps.config.PUBLIC_URL });
  app.use('/api', (req, res, next) => (req.baseUrl + req.path === UNSUBSCRIBE_PATH ? next() : checkOrigin(req, res, next)));

  const appDeps: AppDeps = { ...deps, onContentChanged: (reason) => { cache.clear(); deps.onContentChanged?.(reason); } };
  mountRoutes(app, appDeps, pp, cache.middleware);
  app.use('/api', notFoundApi);

  if (deps.site) app.use(siteMiddleware(deps.site));
  app.use(errorHandler);
  return app;
}

function parseTrustProxy(v: string | undefined): boolean | number | string {
  if (!v) return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}
