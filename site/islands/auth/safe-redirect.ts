/**
 * The login page's optional `redirect` (spec §2 Login), accepted only for same-site paths so it cannot be
 * used as an open redirect (ASVS 5.1.5): a single leading '/', no '//' or '/\', no scheme, no control
 * characters or backslashes (browsers strip tabs/newlines and turn '\' into '/'). Returns the path or null.
 */
export function safeRedirect(raw: string | null | undefined): string | null {
  if (!raw || raw.length > 2048) return null;
  if (!raw.startsWith('/') || raw.startsWith('//')) return null;
  if (/[\\\u0000-\u001f\u007f]/.test(raw)) return null;
  try {
    const base = 'https://same-site.invalid';
    const u = new URL(raw, base);
    if (u.origin !== base) return null;
    return `${u.pathname}${u.search}${u.hash}`;
  } catch {
    return null;
  }
}

/** Where a person goes after logging in: the safe redirect, else the dashboard for their role (spec §2). */
export function destinationAfterLogin(role: string, redirect: string | null | undefined): string {
  return safeRedirect(redirect) ?? (role === 'admin' ? '/dashboard/admin' : '/dashboard/student');
}
