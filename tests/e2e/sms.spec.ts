/**
 * SMS updates on the profile (issue #17): a STOP reply from the phone shows there and locks the choice, because a
 * number on an account is not verified (another account may give the same one); a START reply unlocks it.
 */
import { test, expect, type APIRequestContext } from '@playwright/test';
import { E2E_SMS_WEBHOOK_SECRET, uniqueEmail } from './fixtures.ts';

/** The gateway posts a reply from `from` (BulkSMS webhook body). */
async function reply(request: APIRequestContext, from: string, body: string) {
  const res = await request.post(`/api/sms/inbound?secret=${E2E_SMS_WEBHOOK_SECRET}`, { data: [{ type: 'RECEIVED', from, body }] });
  expect(res.status()).toBe(200);
}

test('profile › SMS: turning off and on, a STOP reply locks the box with how to undo it, START unlocks it', async ({ page, playwright, baseURL }) => {
  const local = `083${String(Date.now()).slice(-7)}`, e164 = `+27${local.slice(1)}`;
  // People's numbers read national and spaced on screen (plain-language audit 8): '083 123 4567'.
  const shown = `${local.slice(0, 3)} ${local.slice(3, 6)} ${local.slice(6)}`;
  const reg = await page.request.post('/api/auth/register', { data: { firstName: 'Khathu', lastName: 'Sms', email: uniqueEmail('sms'), password: 'secret123', confirmPassword: 'secret123', phone: local, terms: true } });
  expect(reg.status()).toBe(201);
  await page.goto('/profile');
  const card = page.getByRole('region', { name: 'SMS updates' });
  const box = card.getByRole('checkbox', { name: 'Send me SMS updates about my applications' });
  await expect(card.getByTestId('sms-number')).toHaveText(`Messages go to ${shown}.`);
  await expect(box).toBeChecked();
  await box.uncheck();
  await expect(page.getByTestId('toast').filter({ hasText: 'SMS updates off' })).toBeVisible();
  await box.check();
  await expect(page.getByTestId('toast').filter({ hasText: 'SMS updates on' })).toBeVisible();

  const gateway = await playwright.request.newContext({ baseURL });
  await reply(gateway, e164.slice(1), 'STOP');
  await page.reload();
  await expect(card.getByTestId('sms-number')).toHaveText(`Messages go to ${shown}. This number replied STOP. Reply START to any of our messages to receive SMS again.`);
  await expect(box).not.toBeChecked();
  await expect(box).toBeDisabled();
  // The API holds the line too: a profile cannot lift a STOP.
  expect((await page.request.put('/api/sms/preference', { data: { optOut: false } })).status()).toBe(409);

  await reply(gateway, e164.slice(1), 'START');
  await page.reload();
  await expect(card.getByTestId('sms-number')).toHaveText(`Messages go to ${shown}.`);
  await expect(box).toBeChecked();
  await expect(box).toBeEnabled();
  await gateway.dispose();
});
