/**
 * Shared helpers of the external-system islands (spec §2 External pages, §4 External login):
 * the login-required check, the redirect to /admin/external-login?redirect=…, a safe redirect target,
 * and idempotency keys. Money and dates: lib/format.ts.
 */
import { ApiError } from '../../lib/api-client.ts';
import { safeRedirect as safeSiteRedirect } from '../auth/safe-redirect.ts';

export const EXTERNAL_LOGIN_PATH = '/admin/external-login';

/** True when the API said the admin has no external session (401 external_login_required). */
export function isExternalLoginRequired(e: unknown): boolean {
  return e instanceof ApiError && e.status === 401 && e.body?.error?.code === 'external_login_required';
}

/** True when the portal session itself is gone (401 'unauthorized', not an external-login code). */
export function isPortalLoggedOut(e: unknown): boolean {
  return e instanceof ApiError && e.status === 401 && e.body?.error?.code === 'unauthorized';
}

/** '/admin/external-login?redirect=<current path and query>'. */
export function externalLoginUrl(back = window.location.pathname + window.location.search): string {
  return `${EXTERNAL_LOGIN_PATH}?redirect=${encodeURIComponent(back)}`;
}

/** Sends the browser to the external login, remembering where to come back to. */
export function goToExternalLogin(): void {
  window.location.replace(externalLoginUrl());
}

/**
 * The ?redirect= target when it resolves to an admin page on this site, else /admin/branches
 * (no open redirects, ASVS 5.0 V3.7.2): resolved with the login redirect's same-origin check first.
 */
export function safeRedirect(raw: string | null): string {
  const path = safeSiteRedirect(raw);
  if (path && path.startsWith('/admin/') && !path.startsWith(EXTERNAL_LOGIN_PATH)) return path;
  return '/admin/branches';
}

/** A fresh key for one submission attempt (works on plain-HTTP origins without randomUUID). */
export function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
