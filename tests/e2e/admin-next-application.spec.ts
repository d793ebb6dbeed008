/**
 * Working through the queue (audit C item 4): the detail panel has Previous/Next over the list's rows, and its
 * status control is on screen without scrolling, on a laptop (1366×768) and a phone (390×844); on a smaller phone it
 * waits at the end of the panel instead of covering the application.
 */
import { test, expect } from '@playwright/test';
import { adminLogin, applicationsTagged } from './admin-seed.ts';
import { uniqueSurname } from './admin-seed.ts';

for (const viewport of [{ width: 1366, height: 768 }, { width: 390, height: 844 }]) {
  test(`detail panel › Next opens the following row's application, Previous goes back; Update status is in view (${viewport.width}×${viewport.height})`, async ({ page, playwright, baseURL }) => {
    await page.setViewportSize(viewport);
    const surname = uniqueSurname();
    const [a, b, c] = await applicationsTagged(() => playwright.request.newContext({ baseURL }), surname, 3);
    await adminLogin(page.request);
    await page.goto(`/admin/applications?q=${surname}&sort=id&dir=asc`);
    await expect(page.getByTestId('app-row')).toHaveCount(3);
    await page.getByRole('button', { name: `View APP-${a}` }).click();
    let panel = page.getByRole('dialog', { name: `Application APP-${a}` });
    await expect(panel.getByText('StudentA', { exact: true })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Previous application' })).toBeDisabled();
    await expect(panel.getByRole('button', { name: 'Update status' })).toBeInViewport();
    await expect(panel.getByRole('combobox', { name: 'Status', exact: true })).toBeInViewport();

    await panel.getByRole('button', { name: 'Next application' }).click();
    panel = page.getByRole('dialog', { name: `Application APP-${b}` });
    await expect(panel.getByText('StudentB', { exact: true })).toBeVisible();
    await panel.getByRole('button', { name: 'Next application' }).click();
    panel = page.getByRole('dialog', { name: `Application APP-${c}` });
    await expect(panel.getByText('StudentC', { exact: true })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Next application' })).toBeDisabled();
    await expect(panel.getByRole('button', { name: 'Update status' })).toBeInViewport();
    await panel.getByRole('button', { name: 'Previous application' }).click();
    await expect(page.getByRole('dialog', { name: `Application APP-${b}` })).toBeVisible();
  });
}

test('detail panel on a small phone (360×640): the decision bar does not cover the application; it waits at the panel\'s end', async ({ page, playwright, baseURL }) => {
  await page.setViewportSize({ width: 360, height: 640 });
  const surname = uniqueSurname();
  const [a] = await applicationsTagged(() => playwright.request.newContext({ baseURL }), surname, 1);
  await adminLogin(page.request);
  await page.goto(`/admin/applications?q=${surname}`);
  await page.getByRole('button', { name: `View APP-${a}` }).click();
  const panel = page.getByRole('dialog', { name: `Application APP-${a}` });
  await expect(panel.getByText('StudentA', { exact: true })).toBeVisible();
  // A sticky bar here took about 290 of 640 px while the admin reads the applicant's details.
  await expect(panel.getByRole('button', { name: 'Update status' })).not.toBeInViewport();
  await panel.getByRole('button', { name: 'Update status' }).scrollIntoViewIfNeeded();
  await expect(panel.getByRole('button', { name: 'Next application' })).toBeInViewport();
});

for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
  test(`detail panel › right after Update status the toast covers none of the decision bar: Next can be pressed at once (${viewport.width}×${viewport.height})`, async ({ page, playwright, baseURL }) => {
    await page.setViewportSize(viewport);
    const surname = uniqueSurname();
    const [a] = await applicationsTagged(() => playwright.request.newContext({ baseURL }), surname, 2);
    await adminLogin(page.request);
    await page.goto(`/admin/applications?q=${surname}&sort=id&dir=asc`);
    await page.getByRole('button', { name: `View APP-${a}` }).click();
    const panel = page.getByRole('dialog', { name: `Application APP-${a}` });
    await panel.getByRole('combobox', { name: 'Status', exact: true }).selectOption('under_review');
    await panel.getByRole('button', { name: 'Update status' }).click();
    await expect(panel.getByTestId('toast').filter({ hasText: 'Application updated' })).toBeVisible();
    // Admin performance audit: the 5 s success toast sat on Next, so the day's queue waited 5 s per decision.
    const covered = await panel.getByTestId('decision-bar').evaluate((bar) => [...bar.querySelectorAll('button, select')]
      .filter((el) => { const r = el.getBoundingClientRect(); const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2); return r.width > 0 && !el.contains(hit); })
      .map((el) => (el.textContent ?? '').trim()));
    expect(covered, 'decision-bar controls under the toast').toEqual([]);
  });
}
