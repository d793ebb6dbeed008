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

export const requireUser: RequestHandler = (req, _res, next) => {
  if (!req.user) return next(unauthorized());
  next();
};

export const requireAdmin: RequestHandler = (req, _res, next) => {
  const u = req.user as AuthedUser | undefined;
  if (!u) return next(unauthorized());
  if (u.role !== 'admin') {
    console.warn(`[security] access denied: user ${u.id} (${u.role}) ${req.method} ${req.originalUrl.split('?')[0]}`);
    return next(forbidden());
  }
  next();
};
