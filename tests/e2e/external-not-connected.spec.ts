/**
 * External pages without an external login (spec §2, §6): each page asks GET /api/external/me first and reads
 * no data until it says connected. Audit: /admin/external-payments called GET /api/external/payments?page=1 and
 * GET /api/external/students?search=&pageSize=100 (both 401) before redirecting, and /admin/branches called
 * GET /api/external/branches (401) before showing its "Not connected" card; and the check itself, answering 401,
 * put 'Failed to load resource' in the console of every external page (it now answers 200 {user: null}).
 */
import { test, expect, type Request } from '@playwright/test';
import { E2E_ADMIN } from './fixtures.ts';

/** Requests to /api/external/* other than the connection check (/me) and the health check of the login page. */
function isDataRead(r: Request): boolean {
  const { pathname } = new URL(r.url());
  return pathname.startsWith('/api/external/') && pathname !== '/api/external/me' && pathname !== '/api/external/health';
}

test('an admin not connected to the external system: the external pages read no external data', async ({ page }) => {
  const login = await page.request.post('/api/auth/login', { data: E2E_ADMIN });
  expect(login.status()).toBe(200);
  const reads: string[] = [];
  const checks: string[] = [];
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && m.location().url.includes('/api/external/')) consoleErrors.push(`${m.text()} (${m.location().url})`);
  });
  page.on('request', (r) => {
    if (isDataRead(r)) reads.push(`${r.method()} ${new URL(r.url()).pathname}${new URL(r.url()).search}`);
    else if (new URL(r.url()).pathname === '/api/external/me') checks.push(new URL(page.url()).pathname);
  });

  await test.step('payments: straight to the external login', async () => {
    await page.goto('/admin/external-payments');
    await expect(page).toHaveURL(/\/admin\/external-login\?redirect=%2Fadmin%2Fexternal-payments$/);
    await expect(page.getByRole('button', { name: 'Connect' })).toBeVisible();
  });

  await test.step('students: straight to the external login', async () => {
    await page.goto('/admin/external-students?search=x');
    await expect(page).toHaveURL(/\/admin\/external-login\?redirect=%2Fadmin%2Fexternal-students%3Fsearch%3Dx$/);
    await expect(page.getByRole('button', { name: 'Connect' })).toBeVisible();
  });

  await test.step('branches: the "Not connected" card with the way to the external login', async () => {
    await page.goto('/admin/branches');
    await expect(page.getByRole('heading', { name: 'Not connected to the external system' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Log in to the external system' }))
      .toHaveAttribute('href', '/admin/external-login?redirect=%2Fadmin%2Fbranches');
  });

  expect(checks.length, 'each page asked whether the admin is connected').toBeGreaterThanOrEqual(3);
  expect(reads, 'external data read while not connected').toEqual([]);
  expect(consoleErrors, 'failed /api/external/* requests in the console').toEqual([]);
});
