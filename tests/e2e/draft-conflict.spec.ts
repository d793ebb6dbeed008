/**
 * One application draft edited in two tabs (README "Drafts from two tabs or devices"): the tab whose copy is stale
 * does not overwrite the other's work. It is shown the choice — "Load the newer version" or "Keep my changes" —
 * with focus on it, usable with the keyboard and at 360 px; an offline edit that syncs later is held the same way.
 */
import { expect, test, type Page } from '@playwright/test';
import { fillHighSchool, fillPersonalDetails, uniqueEmail } from './fixtures.ts';

const CHANGED = 'This application was changed in another tab or on another device.';
const DRAFT = '/api/applications/draft?key=course-2';
const LAPTOP = { dateOfBirth: '2001-04-12', nationality: 'za', addressLine1: '12 Church Street', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za' };
const SCHOOL = { name: 'Mbilwi Secondary', qualification: 'National Senior Certificate', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', grade: '72%' };

async function signUp(page: Page) {
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Thandi', lastName: 'Mokoena', email: uniqueEmail('two-tabs'), password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true },
  });
  expect(res.status()).toBe(201);
}

/** Opens the wizard of course 2 and waits until its draft is loaded. */
async function openWizard(page: Page) {
  await page.goto('/apply/2');
  await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('draft-status')).toHaveText('Draft saved');
}

const serverDraft = async (page: Page) => (await (await page.request.get(DRAFT)).json()).draft as { revision: number; step: number; data: Record<string, any> };
/** Waits until the server's draft has `path` (dot-separated, in data) equal to `value`, and returns the draft. */
async function serverHas(page: Page, path: string, value: string) {
  const at = (d: Awaited<ReturnType<typeof serverDraft>>) => path.split('.').reduce<any>((o, k) => o?.[k], d?.data);
  await expect.poll(async () => at(await serverDraft(page))).toBe(value);
  return serverDraft(page);
}

test('a stale tab does not overwrite the other tab: it is offered the newer version or its own, and each choice does what it says', async ({ page: laptop, context }) => {
  test.setTimeout(120_000);
  await signUp(laptop);
  // The second tab is opened first and left alone: it holds the application as it was then.
  const stale = await context.newPage();
  await stale.setViewportSize({ width: 360, height: 740 });
  await openWizard(stale);

  await openWizard(laptop);
  await fillPersonalDetails(laptop, LAPTOP);
  await laptop.getByRole('button', { name: 'Next' }).click();
  await expect(laptop.getByRole('heading', { name: 'Academic History' })).toBeVisible();
  await fillHighSchool(laptop, SCHOOL);
  const laptopSaved = await serverHas(laptop, 'academicHistory.highSchool.to', '2019');
  expect(laptopSaved).toMatchObject({ step: 1, data: { city: 'Thohoyandou', academicHistory: { highSchool: { name: 'Mbilwi Secondary' } } } });

  // The stale tab changes one field: its save is refused, and it says so instead of overwriting.
  await stale.locator('#f-city').fill('Sibasa');
  const notice = stale.getByTestId('draft-conflict');
  await expect(notice).toBeVisible();
  await expect(notice).toHaveAttribute('role', 'alert');
  await expect(notice).toContainText(CHANGED);
  await expect(notice).toContainText('Academic History');
  await expect(notice).toBeFocused();
  await expect(stale.getByTestId('draft-status')).toHaveText('Draft saved on this device only, until you choose which version to keep.');
  expect(await serverDraft(laptop)).toEqual(laptopSaved);
  // At 360 px both choices are on screen, and nothing scrolls sideways.
  for (const name of ['Load the newer version', 'Keep my changes']) {
    const box = (await stale.getByRole('button', { name }).boundingBox())!;
    expect(box.x >= 0 && box.x + box.width <= 360, name).toBe(true);
  }
  expect(await stale.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // With the keyboard: Tab to "Load the newer version", Enter. The laptop's work appears, at its step.
  await stale.keyboard.press('Tab');
  await expect(stale.getByRole('button', { name: 'Load the newer version' })).toBeFocused();
  await stale.keyboard.press('Enter');
  await expect(notice).toHaveCount(0);
  await expect(stale.getByRole('heading', { name: 'Academic History' })).toBeFocused();
  await expect(stale.locator('#f-academicHistory-highSchool-name')).toHaveValue('Mbilwi Secondary');
  await expect(stale.locator('#f-academicHistory-highSchool-to')).toHaveValue('2019');
  await expect(stale.getByTestId('draft-status')).toHaveText('Draft saved');
  // Loading it saved nothing: the laptop's next save is the very next revision, and is not refused.
  await laptop.locator('#f-academicHistory-highSchool-grade').fill('75%');
  const second = await serverHas(laptop, 'academicHistory.highSchool.grade', '75%');
  expect(second.revision).toBe(laptopSaved.revision + 1);
  await expect(laptop.getByTestId('draft-conflict')).toHaveCount(0);

  // The other tab is stale again; this time the person keeps its changes, which are then saved over the newer ones.
  await stale.locator('#f-academicHistory-highSchool-city').fill('Sibasa');
  await expect(notice).toBeVisible();
  await expect(notice).toBeFocused();
  expect(await serverDraft(laptop)).toEqual(second);
  // Typing on sends nothing until the person has chosen; what is typed is part of "my changes".
  await stale.locator('#f-academicHistory-highSchool-qualification').fill('NSC');
  await expect(stale.getByTestId('draft-status')).toHaveText('Draft saved on this device only, until you choose which version to keep.');
  expect(await serverDraft(laptop)).toEqual(second);
  await stale.getByRole('button', { name: 'Keep my changes' }).click();
  await expect(notice).toHaveCount(0);
  const kept = await serverHas(laptop, 'academicHistory.highSchool.qualification', 'NSC');
  await expect(stale.getByTestId('draft-status')).toHaveText('Draft saved');
  expect(kept).toMatchObject({ revision: second.revision + 1, data: { academicHistory: { highSchool: { city: 'Sibasa', grade: '72%' } } } });

  // Now the laptop is the stale one, and is asked in its turn.
  await laptop.locator('#f-academicHistory-highSchool-grade').fill('80%');
  await expect(laptop.getByTestId('draft-conflict')).toBeVisible();
  expect(await serverDraft(laptop)).toEqual(kept);
});

test('an edit made offline and sent when back online is held when the draft changed meanwhile elsewhere', async ({ page: laptop, context }) => {
  test.setTimeout(120_000);
  await signUp(laptop);
  const phone = await context.newPage();
  await openWizard(phone);
  await openWizard(laptop);

  // The phone loses its connection (this page only) and an edit stays on the device.
  const cdp = await context.newCDPSession(phone);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await phone.locator('#f-city').fill('Sibasa');
  await expect(phone.getByTestId('draft-status')).toHaveText('Draft saved on this device; it will sync when you are back online.');

  // Meanwhile the laptop fills in the step.
  await fillPersonalDetails(laptop, LAPTOP);
  const laptopSaved = await serverHas(laptop, 'country', 'za');

  // Back online, the phone's edit is sent and refused: the laptop's work stays, the phone is asked.
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await phone.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect(phone.getByTestId('draft-conflict')).toBeVisible();
  await expect(phone.locator('#f-city')).toHaveValue('Sibasa');
  expect(await serverDraft(laptop)).toEqual(laptopSaved);

  // A reload of the phone does not lose its edit either: it is still on the device, and still asked about.
  await phone.reload();
  await expect(phone.getByTestId('draft-conflict')).toBeVisible({ timeout: 30_000 });
  await expect(phone.locator('#f-city')).toHaveValue('Sibasa');
  expect(await serverDraft(laptop)).toEqual(laptopSaved);
});
