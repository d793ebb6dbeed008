/**
 * The applications panel's Previous/Next follow the list behind it. When the list changes under the open panel (a
 * search or filter that was on its way when the panel opened) and the focused Next turns disabled, the focus stays in
 * the panel: on Previous when there is one, else on the panel's Close — not on <body>, where a keyboard or
 * screen-reader user was lost (Tab then started from the top of the page, outside the dialog).
 * The list's answer is held until Next has the focus, so the change comes exactly then (no timing).
 */
import { expect, test, type Page } from '@playwright/test';
import { adminLogin, applicationsTagged, uniqueSurname } from './admin-seed.ts';

/** Holds the next GET /api/admin/applications whose query `matches`; `held` resolves once it was asked, `release` lets it through. */
async function holdList(page: Page, matches: (q: URLSearchParams) => boolean) {
  let asked!: () => void;
  const held = new Promise<void>((r) => { asked = r; });
  let release!: () => void;
  const released = new Promise<void>((r) => { release = r; });
  await page.route((url) => url.pathname === '/api/admin/applications', async (route) => {
    if (matches(new URL(route.request().url()).searchParams)) { asked(); await released; }
    await route.continue();
  });
  return { held, release };
}

const focusedText = (page: Page) => page.evaluate(() => {
  const a = document.activeElement;
  if (!a || a === document.body) return 'BODY';
  return `${a.closest('[role="dialog"]') ? 'in panel: ' : 'outside: '}${a.getAttribute('aria-label') ?? (a.textContent ?? '').trim()}`;
});

/**
 * With the list's answer `list` held: opens APP-`b`'s panel from the list shown before it, puts the focus on its Next
 * application, then lets the held answer through. Returns the panel and its Next button.
 */
async function focusNextThenRelease(page: Page, b: number, list: { held: Promise<unknown>; release: () => void }) {
  await list.held;
  await page.getByRole('button', { name: `View APP-${b}` }).click();
  const panel = page.getByRole('dialog', { name: `Application APP-${b}` });
  await expect(panel.getByText('StudentB', { exact: true })).toBeVisible();
  const next = panel.getByRole('button', { name: 'Next application' });
  await next.focus();
  await expect(next).toBeFocused();
  list.release();
  return { panel, next };
}

test('the focused Next turns disabled as a search leaves one row: the focus goes to the panel\'s Close, not the page', async ({ page, playwright, baseURL }) => {
  const surname = uniqueSurname();
  const [, b] = await applicationsTagged(() => playwright.request.newContext({ baseURL }), surname, 3);
  await adminLogin(page.request);
  await page.goto(`/admin/applications?q=${surname}&sort=id&dir=asc`);
  await expect(page.getByTestId('app-row')).toHaveCount(3);
  const list = await holdList(page, (q) => (q.get('q') ?? '').startsWith('StudentB'));
  await page.getByLabel('Search').fill(`StudentB ${surname}`);
  const { panel, next } = await focusNextThenRelease(page, b, list);
  await expect(next).toBeDisabled();
  await expect(panel.getByRole('button', { name: 'Previous application' })).toBeDisabled();
  await expect.poll(() => focusedText(page)).toBe('in panel: Close');
});

test('the focused Next turns disabled as a status filter drops the next row: the focus goes to Previous', async ({ page, playwright, baseURL }) => {
  const surname = uniqueSurname();
  const [a, b, c] = await applicationsTagged(() => playwright.request.newContext({ baseURL }), surname, 3);
  await adminLogin(page.request);
  await page.goto(`/admin/applications?q=${surname}&sort=id&dir=asc`);
  await expect(page.getByTestId('app-row')).toHaveCount(3);
  // Someone else moves C on; the Pending filter, chosen now, then leaves A and B.
  expect((await page.request.put(`/api/admin/applications/${c}/status`, { data: { status: 'under_review' } })).status()).toBe(200);
  const list = await holdList(page, (q) => q.get('status') === 'pending');
  await page.getByLabel('Status').selectOption('pending');
  const { panel, next } = await focusNextThenRelease(page, b, list);
  await expect(next).toBeDisabled();
  await expect.poll(() => focusedText(page)).toBe('in panel: Previous application');
  // It still works from there: Previous opens A.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: `Application APP-${a}` })).toBeVisible();
});
