/**
 * Accessibility audit 2026-11-28 (WCAG 2.2 AA, keyboard and screen reader), what it found and was mended:
 * - 2.4.1: on admin pages "Skip to content" skipped only the header; the admin menu (logo, 13 links, Log out) still
 *   came first. It now lands on the page's own content column.
 * - 2.5.3: the admin logo showed "VSC Admin" but was named "Vhembe Skills College home"; its name now starts with
 *   what it shows.
 * - 4.1.3: the contact and assessment forms put role=alert on every field's message, so an empty booking announced
 *   twelve alerts at once; the messages are now tied to their fields (aria-describedby) and the focus goes to the first.
 * - 1.3.1: the Reports tab went from the page's h1 to h3s; it has its h2.
 * - Escape in the applications panel while a rejection reason is typed asks before the reason is thrown away.
 * - 2.4.11: with the phone menu open, focus moved on past the menu into the page behind the sticky header and menu;
 *   the menu now closes when the focus leaves the header, and scrolls within the screen when it is taller.
 */
import { expect, test } from '@playwright/test';
import { adminLogin, openApplicationPanel, studentApplies } from './admin-seed.ts';
import { signUp } from './wizard-draft.ts';

test('admin pages: Skip to content goes past the admin menu to the page\'s content; the logo\'s name starts with the words it shows', async ({ page }) => {
  await adminLogin(page.request);
  await page.goto('/admin/courses');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const logo = page.getByRole('link', { name: /^VSC Admin/ });
  await expect(logo).toHaveCount(1);
  await expect(logo).toHaveAccessibleName(/home$/);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => {
    const a = document.activeElement!;
    return { inMenu: Boolean(a.closest('aside')), inContent: Boolean(a.closest('#admin-content')), text: (a.textContent ?? '').trim() };
  });
  expect(focused, JSON.stringify(focused)).toMatchObject({ inMenu: false, inContent: true });
});

test('public forms: an empty booking marks every field, moves the focus to the first, and announces no pile of alerts', async ({ page }) => {
  await page.goto('/assessment-centre');
  await page.getByRole('button', { name: 'Submit Application' }).click();
  await expect(page.getByText('First name must be at least 2 characters', { exact: true })).toBeVisible();
  await expect(page.getByLabel('First Name')).toBeFocused();
  await expect(page.getByLabel('First Name')).toHaveAccessibleDescription(/First name must be at least 2 characters/);
  await expect(page.getByText('Please select your highest education level', { exact: true })).toBeVisible();
  await expect(page.locator('.field-error[role=alert]:visible')).toHaveCount(0);
  await expect(page.getByRole('alert').filter({ hasText: 'First name must be at least 2 characters' })).toHaveCount(0);
});

test('admin dashboard: the Reports tab has its own h2 above its reports\' h3s', async ({ page }) => {
  await adminLogin(page.request);
  await page.goto('/admin#reports');
  await expect(page.getByRole('heading', { level: 3, name: 'Applications by status' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Reports' })).toHaveCount(1);
});

test('applications panel: Escape while a rejection reason is typed asks before throwing it away, and Keep editing keeps it', async ({ page, browser }) => {
  const student = await browser.newContext();
  const id = await studentApplies(student.request, 1, 'Naledi', 'Escape');
  await student.close();
  await adminLogin(page.request);
  await page.goto('/admin/applications');
  const panel = await openApplicationPanel(page, id);
  await panel.getByRole('button', { name: 'Reject ID Document' }).click();
  const reason = page.getByLabel('Reason (shown to the applicant)');
  await reason.fill('The ID has expired.');
  await reason.press('Escape');
  const ask = page.getByRole('alertdialog', { name: 'Discard your changes?' });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Keep editing' }).click();
  await expect(panel).toBeVisible();
  await expect(reason).toHaveValue('The ID has expired.');
});

test('phone menu: Tab past its last item closes it (the page behind is not covered), and it scrolls when taller than the screen', async ({ page }) => {
  await page.setViewportSize({ width: 412, height: 500 });
  await signUp(page, 'menu');
  await page.goto('/courses');
  const open = page.getByRole('button', { name: 'Open menu' });
  await expect(open).toBeVisible();
  await open.click();
  const drawer = page.locator('[data-drawer]');
  await expect(drawer).toBeVisible();
  const box = await drawer.boundingBox();
  expect(box!.y + box!.height, 'the open menu ends within the 500 px screen').toBeLessThanOrEqual(500);
  const logout = drawer.getByRole('button', { name: 'Log out' });
  await logout.focus();
  await logout.scrollIntoViewIfNeeded();
  await expect(logout).toBeInViewport();
  await page.keyboard.press('Tab');
  await expect(drawer).toBeHidden();
  await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
});
