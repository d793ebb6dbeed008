/**
 * Account pages on a phone whose JavaScript is off or partly lost (audit of cheap phones, November 2026): /apply/1,
 * /dashboard/student, /my-applications and /profile showed a spinner, or nothing, for ever. With JavaScript off the
 * page now says it needs JavaScript and gives the office phone; when part of its code fails to load it says so with
 * a Reload button; and a spinner still turning after 15 s offers Reload and the phone.
 */
import fs from 'node:fs';
import { test, expect } from '@playwright/test';

const site = JSON.parse(fs.readFileSync('content/site.json', 'utf8')) as { telephone: string };

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 360, height: 640 } });
  test('each account page says it needs JavaScript and gives the office phone', async ({ page }) => {
    for (const path of ['/apply/1', '/dashboard/student', '/my-applications', '/applications/1', '/profile']) {
      await page.goto(path);
      // Playwright's text matching skips <noscript>, so the note is read with textContent (shown: JavaScript is off).
      const note = page.locator('main noscript .page-note');
      await expect(note, path).toBeVisible();
      expect(await note.evaluate((el) => el.textContent), path).toBe(`This page needs JavaScript. Turn on JavaScript or data-saver off, or call ${site.telephone}.`);
      await expect(note.getByRole('link'), path).toHaveAttribute('href', `tel:${site.telephone.replace(/\s/g, '')}`);
    }
  });
});

test('a dashboard whose code cannot be loaded says part of the page did not load, and Reload loads it again', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 640 });
  await page.route('**/_astro/StudentDashboard*', (r) => r.abort('connectionreset'));
  await page.goto('/dashboard/student');
  await expect(page.getByRole('alert').filter({ hasText: "Part of this page didn't load. Check your connection and reload." })).toBeVisible();
  await page.unroute('**/_astro/StudentDashboard*');
  await page.getByRole('button', { name: 'Reload' }).click();
  // Loaded this time: the dashboard runs and sends a signed-out visitor to log in.
  await expect(page).toHaveURL(/\/login/);
});

test('a page whose code never arrives (a stalled connection): after 15 s its spinner offers Reload and the office phone, still not as a live region', async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 360, height: 640 });
  await page.route('**/_astro/ApplyWizard*', () => { /* never answered: no error, no hydration */ });
  await page.goto('/apply/1', { waitUntil: 'domcontentloaded' });
  await expect(page.getByText('Checking your session…')).toBeVisible();
  const offer = page.getByText(/Still loading\?/);
  await expect(offer).toBeVisible({ timeout: 30_000 });
  await expect(offer).toContainText(`Check your connection and reload, or call ${site.telephone}.`);
  await expect(offer.getByRole('link', { name: site.telephone })).toHaveAttribute('href', `tel:${site.telephone.replace(/\s/g, '')}`);
  await expect(offer.getByRole('link', { name: 'Reload' })).toBeVisible();
  expect(await offer.evaluate((el) => Boolean(el.closest('[role=status],[role=alert],[aria-live]')))).toBe(false);
});
