/**
 * One status badge for everyone (issue #15 point 5): the admin dashboard lists the six application statuses in the
 * colours of spec §4 — the same islands/ui/StatusBadge the applicant's pages use — and the admin screens that show
 * badges, skeletons and dates, and the applicant's polled pages (@nanostores/query), keep axe at 0 in light and dark.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { E2E_ADMIN, logInThroughUi, uniqueEmail } from './fixtures.ts';

const SPEC_COLOURS = {
  pending: 'yellow', under_review: 'blue', documents_required: 'orange', payment_pending: 'purple', accepted: 'green', rejected: 'red',
};
const LABELS = { pending: 'Pending', under_review: 'Under Review', documents_required: 'Documents Required', payment_pending: 'Payment Pending', accepted: 'Accepted', rejected: 'Rejected' };

test('admin dashboard: each status in its spec §4 colour and label; the admin screens pass axe, light and dark', async ({ page }) => {
  test.setTimeout(120_000);
  await logInThroughUi(page, E2E_ADMIN.email, E2E_ADMIN.password, /\/dashboard\/admin/);
  const byStatus = page.getByRole('region', { name: 'Applications by status' });
  for (const [status, colour] of Object.entries(SPEC_COLOURS)) {
    const badge = byStatus.locator(`[data-status="${status}"]`);
    await expect(badge).toHaveText(LABELS[status as keyof typeof LABELS]);
    await expect(badge).toHaveAttribute('data-colour', colour);
  }

  const problems: string[] = [];
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => localStorage.setItem('theme', JSON.stringify(t)), theme);
    for (const [path, ready] of [['/dashboard/admin', '[data-status]'], ['/admin/applications', '[data-testid="apps-count"]'], ['/admin/students', 'main h1'], ['/admin/messages', 'main h1']] as const) {
      await page.goto(path);
      await expect(page.locator(ready).first()).toBeVisible();
      await expect(page.locator('[aria-busy="true"][role="status"]')).toHaveCount(0);
      const r = await new AxeBuilder({ page }).include('main').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
      for (const v of r.violations) problems.push(`${theme} ${path}: ${v.id} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    }
  }
  expect(problems).toEqual([]);
});

test("the applicant's polled pages (dashboard, My Applications) pass axe once loaded, light and dark", async ({ page }) => {
  const email = uniqueEmail('badge');
  const reg = await page.request.post('/api/auth/register', { data: { firstName: 'Thandi', lastName: 'Badge', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true } });
  expect(reg.status()).toBe(201);
  const problems: string[] = [];
  await page.goto('/');
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => localStorage.setItem('theme', JSON.stringify(t)), theme);
    for (const [path, heading] of [['/dashboard/student', /Welcome, Thandi/], ['/my-applications', 'My Applications']] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      const r = await new AxeBuilder({ page }).include('main').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
      for (const v of r.violations) problems.push(`${theme} ${path}: ${v.id} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    }
  }
  expect(problems).toEqual([]);
});
