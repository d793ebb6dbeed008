/**
 * /profile on a 360 px phone, by keyboard and with the text at 200 % (accessibility audit, November 2026; WCAG 1.4.4,
 * 1.4.10, 2.4.3): the SMS box kept the focus only until its PUT started (it became disabled, so the focus fell to the
 * page and a second Space did nothing); "E-mail me college announcements" pushed the page to 376 px and squashed its
 * box to 13 px; and "Delete your account?" did not say what the college keeps (the erasure e-mail does).
 */
import { expect, test, type Page } from '@playwright/test';
import { signUp } from './slow-network.ts';

test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

/** Holds every PUT /api/sms/preference until the returned function is called; counts them. */
async function holdSmsWrites(page: Page) {
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const seen = { puts: 0 };
  await page.route('**/api/sms/preference', async (route) => {
    if (route.request().method() !== 'PUT') return route.continue();
    seen.puts++;
    await gate;
    await route.continue();
  });
  return { release, seen };
}

test('the SMS box keeps the focus while its change is saved, ignores a second Space until then, and answers one after', async ({ page }) => {
  await signUp(page);
  const held = await holdSmsWrites(page);
  await page.goto('/profile');
  const box = page.getByRole('checkbox', { name: 'Send me SMS updates about my applications' });
  await expect(box).toBeChecked();
  await box.focus();
  await page.keyboard.press('Space');
  await expect(box).not.toBeChecked();
  await expect.poll(() => held.seen.puts).toBe(1);
  await expect(box).toBeFocused();
  await expect(box).toHaveAttribute('aria-disabled', 'true');
  // A second Space while the first is on its way changes nothing and sends nothing.
  await page.keyboard.press('Space');
  await expect(box).not.toBeChecked();
  held.release();
  await expect(page.getByTestId('toast').getByText('SMS updates off')).toBeVisible();
  expect(held.seen.puts).toBe(1);
  await expect(box).toBeFocused();
  await expect(box).not.toHaveAttribute('aria-disabled', 'true');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('toast').getByText('SMS updates on')).toBeVisible();
  await expect(box).toBeChecked();
  expect(held.seen.puts).toBe(2);
  expect((await (await page.request.get('/api/sms/preference')).json()).optedOut).toBe(false);
});

test('/profile at 200 % text on a 360 px phone: no sideways scroll, and the two checkboxes keep their size', async ({ page }) => {
  await signUp(page);
  await page.goto('/profile');
  const announcements = page.getByRole('checkbox', { name: 'E-mail me college announcements' });
  const sms = page.getByRole('checkbox', { name: 'Send me SMS updates about my applications' });
  await expect(announcements).toBeVisible();
  await expect(sms).toBeVisible();
  await page.addStyleTag({ content: 'html{font-size:200% !important}' });
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  expect(scrollWidth, `page ${scrollWidth} px wide in ${clientWidth}`).toBeLessThanOrEqual(clientWidth);
  // h-5 w-5: 1.25rem, 40 px at 200 %.
  for (const [name, box] of [['announcements', announcements], ['SMS', sms]] as const) {
    const b = (await box.boundingBox())!;
    expect(b.width, `${name} checkbox ${b.width} × ${b.height} px`).toBeGreaterThanOrEqual(b.height - 1);
    expect(b.width, `${name} checkbox ${b.width} px wide`).toBeGreaterThanOrEqual(24);
    expect(b.x + b.width, `${name} checkbox right edge`).toBeLessThanOrEqual(clientWidth);
  }
});

test('"Delete your account?" says in plain words what the college keeps', async ({ page }) => {
  await signUp(page);
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('The college keeps the record of any application (course, status and dates) and its payment, without your name or details.');
  // Short sentences (plain-words audit: at most 22 words each).
  const text = (await dialog.getByText(/cannot be recovered/).textContent())!;
  for (const sentence of text.split(/(?<=\.)\s+/)) expect(sentence.split(/\s+/).length, sentence).toBeLessThanOrEqual(22);
});
