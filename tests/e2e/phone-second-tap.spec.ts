/**
 * A 360 px touch phone (phone audit, 2026-11-27): the tail of a gesture does not answer the question it opened
 * (a second tap on quick Approve/Reject lands on the dialog's action, which lies under it); what is typed while a
 * save runs survives the save's answer (profile, NSC results, settings); the public forms' Send keeps the focus;
 * a document picker is not usable while the documents are being sent (a file picked then was silently dropped).
 * Requests are held by gates the test opens, never by timers; the 40 ms between two taps is the gesture itself.
 */
import { expect, test, type Page } from '@playwright/test';
import { adminLogin, appliedThenAdmin, storedStatus, studentApplies, toast } from './admin-seed.ts';
import { hold, signUp } from './slow-network.ts';

test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });


/**
 * Whether leaving for /courses asks first (the leave warning's beforeunload prompt, dismissed: the page stays). The
 * header's links are behind the menu at 360 px, so the page itself navigates, after the person has typed (Chromium
 * shows the prompt only after user activation).
 */
async function leaveAsks(page: Page): Promise<'asked' | 'left'> {
  let asked = false;
  const onDialog = (d: import('@playwright/test').Dialog) => { if (d.type() === 'beforeunload') asked = true; void d.dismiss(); };
  page.on('dialog', onDialog);
  void page.evaluate(() => { location.href = '/courses'; }).catch(() => {});
  await expect.poll(() => asked || page.url().endsWith('/courses')).toBe(true);
  page.off('dialog', onDialog);
  return asked ? 'asked' : 'left';
}

const centre = (b: { x: number; y: number; width: number; height: number }) => [b.x + b.width / 2, b.y + b.height / 2] as const;

for (const [verb, action, status, input] of [['Approve', 'Accept application', 'accepted', 'touch'], ['Reject', 'Reject application', 'rejected', 'mouse']] as const) {
  test(`quick ${verb}: two ${input === 'touch' ? 'taps' : 'clicks'} 40 ms apart open the question and do not answer it; a deliberate press later does`, async ({ page, playwright, baseURL }) => {
    const id = await appliedThenAdmin(page, () => playwright.request.newContext({ baseURL }), 'Ndivhuwo');
    const puts: string[] = [];
    page.on('request', (r) => { if (r.method() === 'PUT' && /\/api\/admin\/applications\/\d+\/status/.test(r.url())) puts.push(r.url()); });
    await page.goto('/admin/applications?status=pending');
    await page.getByLabel('Search').fill(`APP-${id}`);
    const quick = page.getByRole('button', { name: `${verb} APP-${id}` });
    const ask = page.getByRole('alertdialog');
    const confirm = ask.getByRole('button', { name: action });
    // Where the dialog's action lies, measured once (then Cancel, which works at once).
    await quick.click();
    await expect(confirm).toBeVisible();
    const [ax, ay] = centre((await confirm.boundingBox())!);
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect(ask).toBeHidden();
    expect(puts).toEqual([]);

    const [qx, qy] = centre((await quick.boundingBox())!);
    const press = (x: number, y: number) => (input === 'touch' ? page.touchscreen.tap(x, y) : page.mouse.click(x, y));
    await press(qx, qy);
    await page.waitForTimeout(40);
    await press(ax, ay);
    await expect(ask).toBeVisible();
    await expect(ask).toContainText(`APP-${id}`);
    expect(puts, 'no decision sent by the second press').toEqual([]);
    expect(await storedStatus(page.request, id)).toBe('pending');

    // Playwright's click waits while the action is aria-disabled, as a person waits for it to look ready.
    await confirm.click();
    await expect(toast(page, 'Application updated')).toBeVisible();
    expect(puts).toHaveLength(1);
    expect(await storedStatus(page.request, id)).toBe(status);
  });
}

test('profile: Address line 1 typed while the City change is saving stays, unsaved, and is saved by the next Save', async ({ page }) => {
  await signUp(page);
  await page.goto('/profile');
  const city = page.getByLabel('City');
  const line1 = page.getByLabel('Address line 1');
  await expect(city).toBeEditable();
  const held = await hold(page, '**/api/profile', 'PUT');
  await city.fill('Thohoyandou');
  await city.press('Enter');
  await expect.poll(() => held.seen.n).toBe(1);
  await line1.fill('12 Church Street');
  held.release();
  await expect(toast(page, 'Profile updated')).toBeVisible();
  await expect(line1).toHaveValue('12 Church Street');
  await expect(city).toHaveValue('Thohoyandou');
  const save = page.getByRole('button', { name: 'Save changes' });
  await expect(save).not.toHaveAttribute('aria-disabled', 'true');
  expect(held.seen.n).toBe(1);
  const stored = async () => (await (await page.request.get('/api/profile')).json()).user;
  expect(await stored()).toMatchObject({ city: 'Thohoyandou', addressLine1: null });
  expect(await leaveAsks(page)).toBe('asked');
  await save.click();
  await expect.poll(async () => (await stored()).addressLine1).toBe('12 Church Street');
  await expect(save).toHaveAttribute('aria-disabled', 'true');
});

test('NSC results: a subject added while saving stays, unsaved, and is saved by the next Save', async ({ page }) => {
  await signUp(page);
  await page.goto('/profile');
  const card = page.getByRole('region', { name: 'NSC results' });
  await card.getByRole('button', { name: 'Add subject' }).click();
  await card.locator('#profile-nsc-0-subject').selectOption('Mathematics');
  await card.locator('#profile-nsc-0-percent').fill('65');
  const held = await hold(page, '**/api/profile/nsc-results', 'PUT');
  await card.getByRole('button', { name: 'Save NSC results' }).click();
  await expect.poll(() => held.seen.n).toBe(1);
  await card.getByRole('button', { name: 'Add subject' }).click();
  await card.locator('#profile-nsc-1-subject').selectOption('Life Orientation');
  await card.locator('#profile-nsc-1-percent').fill('80');
  held.release();
  await expect(toast(page, 'NSC results saved')).toBeVisible();
  await expect(card.locator('#profile-nsc-1-subject')).toHaveValue('Life Orientation');
  await expect(card.locator('#profile-nsc-1-percent')).toHaveValue('80');
  expect(await leaveAsks(page)).toBe('asked');
  await card.getByRole('button', { name: 'Save NSC results' }).click();
  await expect.poll(async () => (await (await page.request.get('/api/profile/nsc-results')).json()).nscResults.length).toBe(2);
});

test('settings: the accreditation number typed while the office e-mail is saving stays, unsaved', async ({ page }) => {
  await adminLogin(page.request);
  const initial = (await (await page.request.get('/api/admin/settings')).json()).settings;
  await page.goto('/admin/settings');
  const mail = page.getByLabel('Office e-mail');
  const accr = page.getByLabel('Accreditation number');
  await expect(mail).toBeEditable();
  const before = await accr.inputValue();
  const held = await hold(page, '**/api/admin/settings', 'PUT');
  await mail.fill('office.phone-audit@college.example');
  await mail.press('Enter');
  await expect.poll(() => held.seen.n).toBe(1);
  await accr.fill(`${before}-NEW`);
  held.release();
  await expect(toast(page, 'Settings saved')).toBeVisible();
  await expect(accr).toHaveValue(`${before}-NEW`);
  await expect(mail).toHaveValue('office.phone-audit@college.example');
  expect(await leaveAsks(page)).toBe('asked');
  // Other specs read the office e-mail: put the settings back.
  expect((await page.request.put('/api/admin/settings', { data: initial })).status()).toBe(200);
});

test('contact: Send Message stays focused while sending and after, says it is busy, and a second tap sends nothing more', async ({ page }) => {
  await page.goto('/contact');
  await page.getByLabel('First name').fill('Tshilidzi');
  await page.getByLabel('Last name').fill('Mavhungu');
  await page.getByLabel('Email').fill('tshilidzi.tap@example.com');
  await page.getByLabel('Message', { exact: true }).fill('Do you offer evening classes?');
  const held = await hold(page, '**/api/contact', 'POST');
  const send = page.locator('form[data-contact-form] button[type=submit]');
  await send.focus();
  await send.press('Enter');
  await expect.poll(() => held.seen.n).toBe(1);
  await expect(send).toHaveAttribute('aria-busy', 'true');
  await expect(send).toBeFocused();
  await send.dispatchEvent('click');
  held.release();
  await expect(page.getByText('Thank you, Tshilidzi. Your message has been sent')).toBeVisible();
  await expect(send).toBeFocused();
  await expect(send).not.toHaveAttribute('aria-disabled', 'true');
  expect(held.seen.n).toBe(1);
});

test('documents required: while "Send documents" runs, the other pickers are unavailable and say why', async ({ page, browser }) => {
  const id = await studentApplies(page.request, 2, 'Thandi', 'Mokoena');
  const admin = await browser.newContext();
  await adminLogin(admin.request);
  expect((await admin.request.put(`/api/admin/applications/${id}/documents/idDocument`, { data: { status: 'rejected', reason: 'Too blurry to read.' } })).status()).toBe(200);
  expect((await admin.request.put(`/api/admin/applications/${id}/status`, { data: { status: 'documents_required' } })).status()).toBe(200);
  await admin.close();
  await page.goto(`/applications/${id}`);
  await page.locator('#f-documents-idDocument').setInputFiles({ name: 'id.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n') });
  await expect(page.locator('[data-slot="idDocument"]').getByRole('status')).toHaveText('id.pdf uploaded');
  const held = await hold(page, `**/api/applications/${id}/documents`, 'PUT');
  await page.getByRole('button', { name: 'Send documents' }).click();
  await expect.poll(() => held.seen.n).toBe(1);
  await expect(page.getByRole('button', { name: 'Choose a file for Qualifications Documents' })).toBeDisabled();
  await expect(page.locator('#f-documents-transcripts')).toBeDisabled();
  await expect(page.getByText('Sending your documents…')).toBeVisible();
  held.release();
  await expect(toast(page, 'Documents submitted')).toBeVisible();
});

test('announcements: two taps 40 ms apart on a row\'s Delete open "Delete announcement" and do not answer it; a deliberate press later deletes', async ({ page }) => {
  await adminLogin(page.request);
  const title = `Open day ${Date.now()}`;
  expect((await page.request.post('/api/announcements', { data: { title, content: 'Campus tours from 09:00.', imageUrl: '', active: false } })).status()).toBe(201);
  const deletes: string[] = [];
  page.on('request', (r) => { if (r.method() === 'DELETE' && /\/api\/announcements\/\d+$/.test(r.url())) deletes.push(r.url()); });
  await page.goto('/admin/announcements');
  const rowDelete = page.getByRole('button', { name: `Delete ${title}` });
  const ask = page.getByRole('alertdialog', { name: 'Delete announcement' });
  const confirm = ask.getByRole('button', { name: 'Delete', exact: true });
  await rowDelete.click();
  await expect(confirm).toBeVisible();
  const [ax, ay] = centre((await confirm.boundingBox())!);
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();

  const [dx, dy] = centre((await rowDelete.boundingBox())!);
  await page.touchscreen.tap(dx, dy);
  await page.waitForTimeout(40);
  await page.touchscreen.tap(ax, ay);
  await expect(ask).toBeVisible();
  expect(deletes, 'nothing deleted by the second tap').toEqual([]);

  await confirm.click();
  await expect(ask).toBeHidden();
  await expect(page.getByRole('button', { name: `Delete ${title}` })).toHaveCount(0);
  expect(deletes).toHaveLength(1);
});
