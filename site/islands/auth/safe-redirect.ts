/**
 * The login page's optional `redirect` (spec §2 Login; also on /auth), accepted only when it resolves to this
 * site so it cannot be used as an open redirect (ASVS 5.0 V3.7.2 / V1.5.x "redirects only to allowed
 * destinations"). The value is resolved the way the browser will resolve it — `new URL(value, origin)` — and
 * accepted only when the result has the same origin; the path that is returned is re-resolved too, so a
 * path that collapses to '//host' (`/.//host`, `/..//host`, `/%2e//host`) is refused. Control characters and
 * backslashes are refused outright (browsers strip tabs/newlines and read '\' as '/').
 * Returns the same-origin path with its query and fragment, or null.
 */
export function safeRedirect(raw: string | null | undefined, origin = currentOrigin()): string | null {
  if (!raw || raw.length > 2048) return null;
  if (!raw.startsWith('/') || raw.startsWith('//')) return null;
  if (/[\\\u0000-\u001f\u007f]/.test(raw)) return null;
  try {
    const base = new URL(origin).origin;
    const u = new URL(raw, base);
    if (u.origin !== base) return null;
    const path = `${u.pathname}${u.search}${u.hash}`;
    // What the caller hands to location.assign must mean the same page again, not '//host'.
    if (path.startsWith('//') || new URL(path, base).origin !== base) return null;
    return path;
  } catch {
    return null;
  }
}

function currentOrigin(): string {
  return typeof window !== 'undefined' && window.location?.origin && window.location.origin !== 'null'
    ? window.location.origin : 'https://same-site.invalid';
}

/** Where a person goes after logging in: the safe redirect, else the dashboard for their role (spec §2). */
export function destinationAfterLogin(role: string, redirect: string | null | undefined): string {
  return safeRedirect(redirect) ?? (role === 'admin' ? '/dashboard/admin' : '/dashboard/student');
}
