/**
 * Access guards (DESIGN §4 Routes; spec §6): requireUser → 401 when anonymous,
 * requireAdmin → 401 anonymous / 403 non-admin. Denials are logged without secrets (ASVS 16.3.2).
 */
import type { RequestHandler, Request } from 'express';
import { unauthorized, forbidden } from './errors.ts';
import type { PublicUser } from '#contracts/auth.ts';

export type AuthedUser = PublicUser;

/** The signed-in user of this request; throws 401 when there is none. */
export function currentUser(req: Request): AuthedUser {
  const u = req.user as AuthedUser | undefined;
  if (!u) throw unauthorized();
  return u;
}

/** Middleware: passes a signed-in request on, else next(401 'Authentication required') (spec §6). */
export const requireUser: RequestHandler = (req, _res, next) => {
  if (!req.user) return next(unauthorized());
  next();
};

/**
 * Middleware: passes an admin on; next(401) when anonymous, next(403 'You need admin privileges to access this page')
 * for any other role, logging the denial (user id, role, method, path without query; ASVS 16.3.2).
 */
export const requireAdmin: RequestHandler = (req, _res, next) => {
  const u = req.user as AuthedUser | undefined;
  if (!u) return next(unauthorized());
  if (u.role !== 'admin') {
    console.warn(`[security] access denied: user ${u.id} (${u.role}) ${req.method} ${req.originalUrl.split('?')[0]}`);
    return next(forbidden());
  }
  next();
};
