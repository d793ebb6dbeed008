/**
 * A pressed button keeps the focus while its request runs and after it (accessibility audit, November 2026; WCAG
 * 2.4.3, 2.4.7): busy buttons are aria-disabled, not disabled (site/islands/ui/BusyButton.tsx), so the focus no longer
 * falls to <body> and a second press while busy sends nothing. Each request is held with page.route until the test
 * lets it go, and the buttons are pressed with the keyboard.
 */
import { expect, test, type Page } from '@playwright/test';
import { adminLogin } from './admin-seed.ts';
import { hold, signUp } from './slow-network.ts';


test('/profile Save changes keeps the focus while saving and after "Profile updated"; a second Enter sends nothing', async ({ page }) => {
  await signUp(page);
  const held = await hold(page, '**/api/profile', 'PUT');
  await page.goto('/profile');
  await page.getByLabel('First name').fill('Thandeka');
  const save = page.getByRole('button', { name: 'Save changes' });
  await save.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => held.seen.n).toBe(1);
  const saving = page.getByRole('button', { name: 'Saving...' });
  await expect(saving).toBeFocused();
  await expect(saving).toHaveAttribute('aria-disabled', 'true');
  // It looks disabled as a disabled button does (global.css styles aria-disabled like :disabled).
  await expect(saving).toHaveCSS('opacity', '0.6');
  await expect(saving).toHaveCSS('cursor', 'not-allowed');
  await page.keyboard.press('Enter');
  held.release();
  await expect(page.getByTestId('toast').getByText('Profile updated')).toBeVisible();
  await expect(save).toBeFocused();
  expect(held.seen.n).toBe(1);
});

test('/profile Download my data keeps the focus while preparing and after the download; a second Enter sends nothing', async ({ page }) => {
  await signUp(page);
  const held = await hold(page, '**/api/profile/export', 'GET');
  await page.goto('/profile');
  const download = page.getByRole('button', { name: 'Download my data' });
  await download.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => held.seen.n).toBe(1);
  const preparing = page.getByRole('button', { name: 'Preparing...' });
  await expect(preparing).toBeFocused();
  await page.keyboard.press('Enter');
  const file = page.waitForEvent('download');
  held.release();
  await file;
  await expect(download).toBeFocused();
  expect(held.seen.n).toBe(1);
});

test('/login with a wrong password: Log in keeps the focus while checking, a second Enter sends nothing, then the e-mail is focused', async ({ page }) => {
  const held = await hold(page, '**/auth/login', 'POST');
  await page.goto('/login');
  await page.getByLabel('Email').fill(`nobody.${Date.now()}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill('wrong-password-1');
  const button = page.getByRole('button', { name: /^Log in$/ });
  await button.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => held.seen.n).toBe(1);
  await expect(page.getByRole('button', { name: 'Logging in...' })).toBeFocused();
  await page.keyboard.press('Enter');
  held.release();
  await expect(page.getByTestId('toast').getByText('Login failed')).toBeVisible();
  // The refused log-in marks the fields and puts the focus in the e-mail (LoginForm.tsx), not on the page.
  await expect(page.getByLabel('Email')).toBeFocused();
  expect(held.seen.n).toBe(1);
});

test('/admin/settings Save settings keeps the focus while saving and after "Settings saved"; a second Enter sends nothing', async ({ page }) => {
  await adminLogin(page.request);
  const held = await hold(page, '**/api/admin/settings', 'PUT');
  await page.goto('/admin/settings');
  const save = page.getByRole('button', { name: 'Save settings' });
  await save.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => held.seen.n).toBe(1);
  await expect(page.getByRole('button', { name: 'Saving…' })).toBeFocused();
  await page.keyboard.press('Enter');
  held.release();
  await expect(page.getByTestId('toast').getByText('Settings saved')).toBeVisible();
  await expect(save).toBeFocused();
  expect(held.seen.n).toBe(1);
});

test('/admin/courses Activate keeps the focus while saving and is the course\'s Deactivate after the list reloads', async ({ page }) => {
  await adminLogin(page.request);
  const title = `Beekeeping ${Date.now()}`;
  const form = { title, description: 'Keep bees and harvest honey in the Vhembe district.', duration: 3, department: 'Business', tuitionFee: 'R2,000', startDate: 'June 2027', isActive: false };
  expect((await page.request.post('/api/courses', { data: form })).status()).toBe(201);
  const held = await hold(page, '**/api/courses/*/activate', 'POST');
  await page.goto('/admin/courses');
  const activate = page.getByRole('button', { name: `Activate ${title}` });
  await activate.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => held.seen.n).toBe(1);
  await expect(activate).toBeFocused();
  await expect(activate).toHaveAttribute('aria-busy', 'true');
  await page.keyboard.press('Enter');
  held.release();
  await expect(page.getByTestId('toast').getByText('Course updated')).toBeVisible();
  await expect(page.getByRole('button', { name: `Deactivate ${title}` })).toBeFocused();
  expect(held.seen.n).toBe(1);
});

test('the dashboard\'s verify-e-mail Resend keeps the focus while sending and after; a second Enter sends nothing', async ({ page }) => {
  await signUp(page);
  const held = await hold(page, '**/api/auth/verify-email/resend', 'POST');
  await page.goto('/dashboard/student');
  const resend = page.getByRole('button', { name: 'Resend' });
  await resend.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => held.seen.n).toBe(1);
  await expect(page.getByRole('button', { name: 'Sending…' })).toBeFocused();
  await page.keyboard.press('Enter');
  held.release();
  await expect(page.getByTestId('toast')).toBeVisible();
  await expect(resend).toBeFocused();
  expect(held.seen.n).toBe(1);
});
