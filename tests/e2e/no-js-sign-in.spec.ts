/**
 * Signing in on a phone whose JavaScript is off or lost (audit of cheap phones, November 2026: Opera Mini, data
 * savers, a chunk lost on a flaky network). The log-in, register and forgot-password forms post only when their
 * JavaScript did not run; that post, with its password, got a raw 404 'Cannot POST /login'. Now the server sends the
 * browser back to the page, which says what to do, and a form whose code failed to load is never posted natively.
 */
import { test, expect, type Page } from '@playwright/test';
import fs from 'node:fs';

const site = JSON.parse(fs.readFileSync('content/site.json', 'utf8')) as { telephone: string };

const NEEDS_JS = 'This page needs JavaScript to sign you in.';

/** The POSTs the page sends to the site's own pages (not /api). */
function pagePosts(page: Page): string[] {
  const posts: string[] = [];
  page.on('request', (r) => { if (r.method() === 'POST' && !new URL(r.url()).pathname.startsWith('/api/')) posts.push(r.url()); });
  return posts;
}

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 360, height: 640 } });

  // /forgot-password's button stays disabled until its code runs, so that form cannot be posted.
  for (const path of ['/login', '/register']) {
    test(`${path}: submitting the form says the page needs JavaScript and gives the office phone, instead of 'Cannot POST'`, async ({ page }) => {
      await page.goto(`${path}?redirect=/apply/1`);
      await page.locator('main input[type=email]').first().fill('thandi@example.com');
      for (const pw of await page.locator('main input[type=password]').all()) await pw.fill('Secret-pass-1');
      const [response] = await Promise.all([
        page.waitForResponse((r) => new URL(r.url()).pathname === path && r.request().method() === 'POST'),
        page.locator('main form button[type=submit]').first().click(),
      ]);
      expect(response.status(), `POST ${path}`).toBe(303);
      await expect(page).toHaveURL(new RegExp(`${path}\\?redirect=%2Fapply%2F1&nojs=1$`));
      // Playwright's text matching skips <noscript>, so the note is read with textContent (shown: JavaScript is off).
      const note = page.locator('main noscript .page-note');
      await expect(note).toBeVisible();
      expect(await note.evaluate((el) => el.textContent)).toBe(`${NEEDS_JS} Turn on JavaScript or data-saver off, or call ${site.telephone}.`);
      expect(page.url()).not.toContain('Secret');
    });
  }
});

test('/login?nojs=1 (a form posted without its code, JavaScript on): the page says it needs JavaScript and gives the office phone', async ({ page }) => {
  await page.goto('/login?nojs=1');
  await expect(page.getByText(NEEDS_JS)).toHaveText(`${NEEDS_JS} Turn on JavaScript or data-saver off, or call ${site.telephone}.`);
  await expect(page.getByText(NEEDS_JS)).toBeVisible();
  await page.goto('/login');
  await expect(page.getByText(NEEDS_JS)).toBeHidden();
});

test('/login: when the form\'s code cannot be loaded, a tap on Log in is not posted as a native form; the page says part of it did not load', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 640 });
  await page.route('**/_astro/LoginForm*', (r) => r.abort('connectionreset'));
  const posts = pagePosts(page);
  await page.goto('/login');
  await page.getByLabel('Email').fill('thandi@example.com');
  await page.getByLabel('Password', { exact: true }).fill('Secret-pass-1');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: "Part of this page didn't load. Check your connection and reload." })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect(posts, 'native form posts').toEqual([]);
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('Secret-pass-1');
});
