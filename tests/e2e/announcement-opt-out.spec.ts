/**
 * Announcement e-mail opt-out (POPIA s69, RFC 8058): the /profile checkbox 'E-mail me college announcements' saves
 * with the details, and the next announcement is not mailed to the student (the admin's count drops by one); the
 * mail it did get before carries a List-Unsubscribe link.
 */
import { test, expect } from '@playwright/test';
import { readMailTo, uniqueEmail } from './fixtures.ts';
import { adminLogin, toast } from './admin-seed.ts';

test('profile › unchecking "E-mail me college announcements" and saving stops announcement mail', async ({ page, playwright, baseURL }) => {
  const email = uniqueEmail('optout');
  const reg = await page.request.post('/api/auth/register', { data: { firstName: 'Mpho', lastName: 'Optout', email, password: 'secret123', confirmPassword: 'secret123', phone: '0831234567', terms: true } });
  expect(reg.status()).toBe(201);
  const verify = await readMailTo(email, /confirm your e-mail/);
  const token = /verify-email#token=([\w-]+)/.exec(verify.text ?? '')![1];
  expect((await page.request.post('/api/auth/verify-email', { data: { token } })).status()).toBe(200);

  const admin = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL! } });
  await adminLogin(admin);
  const announce = async (title: string) => {
    const res = await admin.post('/api/announcements', { data: { title, content: 'Registration opens on Monday at 08:00.', imageUrl: '', active: true, sendEmail: true } });
    expect(res.status()).toBe(201);
    return (await res.json()).emailed as number;
  };
  const first = `Registration week ${Date.now()}`;
  const before = await announce(first);
  const mail = await readMailTo(email, new RegExp(first));
  // The e2e server has no https PUBLIC_URL, so only List-Unsubscribe (RFC 8058's Post header needs an https link).
  expect(mail.headerLines.find((h) => h.key === 'list-unsubscribe')?.line).toMatch(/\/api\/mail\/unsubscribe\?token=\d+\./);

  await page.goto('/profile');
  const box = page.getByRole('checkbox', { name: 'E-mail me college announcements' });
  await expect(box).toBeChecked();
  await box.uncheck();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(toast(page, 'Profile updated')).toBeVisible();
  await page.reload();
  await expect(box).not.toBeChecked();

  expect(await announce(`Exam week ${Date.now()}`)).toBe(before - 1);
  await admin.dispose();
});
