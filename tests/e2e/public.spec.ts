/**
 * Public website journeys (issue #3): catalogue filters in the URL, course pages and the 404 state,
 * the assessment and contact forms, theme persistence without a flash, axe on every public page in
 * both themes, and keyboard access to the header.
 */
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { E2E_ADMIN, fillAssessmentDetails, nextDate } from './fixtures.ts';

const PUBLIC_PAGES = ['/', '/courses', '/courses/1', '/courses/99999', '/about', '/contact', '/assessment-centre', '/terms', '/privacy', '/no-such-page'];


async function visibleCards(page: Page) {
  return page.locator('[data-course-card]:visible');
}

test('catalogue: search and filters narrow the list, live in the URL and survive a reload', async ({ page }) => {
  await page.goto('/courses');
  await expect(page.getByRole('heading', { level: 1, name: 'Our Courses' })).toBeVisible();
  const total = await page.locator('[data-course-card]').count();
  await expect(page.getByText(`Showing ${total} of ${total} courses`)).toBeVisible();

  await page.getByLabel('Department').selectOption('Technology');
  await page.getByLabel('Level').selectOption('certificate');
  const cards = await visibleCards(page);
  const n = await cards.count();
  expect(n).toBeGreaterThanOrEqual(2);
  await expect(page.getByText(`Showing ${n} of ${total} courses`)).toBeVisible();
  for (const card of await cards.all()) {
    await expect(card).toHaveAttribute('data-department', 'Technology');
    await expect(card).toHaveAttribute('data-level', 'certificate');
  }
  await page.getByLabel('Search courses').fill('DIGITAL');
  await expect(page.getByText(`Showing 1 of ${total} courses`)).toBeVisible();
  await expect((await visibleCards(page)).getByRole('heading')).toHaveText('Digital Literacy for the Workplace');
  await expect(page).toHaveURL(/\?q=DIGITAL&department=Technology&level=certificate$/);

  await page.reload();
  await expect(page.getByLabel('Search courses')).toHaveValue('DIGITAL');
  await expect(page.getByLabel('Department')).toHaveValue('Technology');
  await expect(page.getByText(`Showing 1 of ${total} courses`)).toBeVisible();

  await page.getByLabel('Search courses').fill('no such course anywhere');
  await expect(page.getByText('No courses found')).toBeVisible();
  await expect(page.getByText('Try adjusting your search or filter criteria')).toBeVisible();
  // Search covers descriptions too, case-insensitively.
  await page.getByLabel('Department').selectOption('all');
  await page.getByLabel('Level').selectOption('all');
  await page.getByLabel('Search courses').fill('');
  const desc = (await page.locator('[data-course-card] [data-card-description]').first().textContent())!.toLowerCase().split(' ').find((w) => w.length > 8)!;
  await page.getByLabel('Search courses').fill(desc.toUpperCase());
  expect(await (await visibleCards(page)).count()).toBeGreaterThanOrEqual(1);
  // Catalogue cards apply through /apply (spec §2).
  // The link does not pick the course, so its name does not promise it ('Apply Now for …').
  await expect(page.locator('[data-course-card]').first().getByRole('link', { name: 'Apply Now', exact: true })).toHaveAttribute('href', '/apply');
});

test('course page: Apply Now to /apply/{id} in 3 places; unknown or non-numeric id is a 404 Course Not Found', async ({ page }) => {
  await page.goto('/courses/1');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Business Management');
  await expect(page.getByText('Department of Business')).toBeVisible();
  const apply = page.getByRole('link', { name: 'Apply Now', exact: true });
  await expect(apply).toHaveCount(3);
  for (const a of await apply.all()) await expect(a).toHaveAttribute('href', '/apply/1');
  const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
  expect(ld['@type']).toBe('Course');

  for (const bad of ['/courses/99999', '/courses/abc', '/courses/1.5']) {
    const res = await page.goto(bad);
    expect(res?.status(), bad).toBe(404);
    await expect(page.getByRole('heading', { name: 'Course Not Found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to All Courses' })).toHaveAttribute('href', '/courses');
  }
});

test('assessment form: §5 messages on each field, focus on the first, weekend refused, valid submit toasts and resets', async ({ page }) => {
  await page.goto('/assessment-centre');
  for (const step of ['10 minutes', '24-48 hours', '2-3 hours', '5-7 business days']) await expect(page.getByText(step)).toBeVisible();
  const submit = page.getByRole('button', { name: 'Submit Application' });
  await expect(submit).toBeEnabled();
  await submit.click();
  for (const m of ['First name must be at least 2 characters', 'Last name must be at least 2 characters', 'Please enter a valid email address',
    'Phone number must be at least 10 digits', 'Date of birth is required', 'ID number must be 13 digits', 'Please select a preferred campus',
    'Please select your course interest', 'Please select an assessment type', 'Please select a preferred date', 'Please select a preferred time',
    'Please select your highest education level']) {
    await expect(page.getByText(m, { exact: true })).toBeVisible();
  }
  await expect(page.getByLabel('First Name')).toBeFocused();
  await expect(page.getByLabel('First Name')).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('First Name').fill('Mpho');
  await expect(page.getByText('First name must be at least 2 characters')).toHaveCount(0);
  await page.getByLabel('Last Name').fill('Mudau');
  const email = `mpho.${Date.now()}@example.com`;
  await page.getByLabel('Email Address').fill(email);
  await fillAssessmentDetails(page);
  await page.getByLabel('Preferred Date').fill(nextDate(1, [6]));
  await submit.click();
  await expect(page.getByText('The assessment centre is closed on weekends. Please choose a weekday (Monday to Friday)')).toBeVisible();
  await expect(page.getByLabel('Preferred Date')).toBeFocused();

  await page.getByLabel('Preferred Date').fill(nextDate(2, [1, 2, 3, 4, 5]));
  await submit.dblclick();
  await expect(page.getByText('Assessment Application Submitted')).toBeVisible();
  await expect(page.getByText('Your assessment centre application has been successfully submitted. We will contact you soon to confirm your appointment.')).toBeVisible();
  await expect(page.getByLabel('First Name')).toHaveValue('');
  await expect(page.getByLabel('Preferred Campus')).toHaveValue('');
  await expect(page.getByText('Submission Failed')).toHaveCount(0);

  // The double-click stored one booking.
  const admin = await page.request.post('/api/auth/login', { data: E2E_ADMIN });
  expect(admin.status()).toBe(200);
  const { bookings } = await (await page.request.get('/api/admin/assessment-bookings')).json();
  expect(bookings.filter((b: any) => b.email === email)).toHaveLength(1);
});

test('contact form: sends the message and confirms; bad e-mail is caught first', async ({ page }) => {
  await page.goto('/contact');
  for (const campus of ['Tshikombani', 'Siloam', 'Biaba Likhade', 'Tshitavha']) await expect(page.getByRole('heading', { name: campus })).toBeVisible();
  await page.getByLabel('First name').fill('Lufuno');
  await page.getByLabel('Last name').fill('Ndou');
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Message', { exact: true }).fill('Is there a weekend class for Photography?');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await expect(page.getByLabel('Email')).toBeFocused();
  // A message typed and not sent: following a link away asks first, and staying keeps it.
  let asked = 0;
  page.on('dialog', (d) => { if (d.type() === 'beforeunload') asked++; void d.dismiss(); });
  const toCourses = () => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Courses' }).click({ noWaitAfter: true });
  await toCourses();
  await expect.poll(() => asked).toBe(1);
  await expect(page).toHaveURL(/\/contact$/);
  await expect(page.getByLabel('Message', { exact: true })).toHaveValue('Is there a weekend class for Photography?');
  await page.getByLabel('Email').fill('lufuno.e2e@example.com');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Thank you, Lufuno. Your message has been sent')).toBeVisible();
  await expect(page.getByLabel('Message', { exact: true })).toHaveValue('');
  // Sent: leaving does not ask.
  await toCourses();
  await expect(page).toHaveURL(/\/courses$/);
  expect(asked).toBe(1);
});

test('theme: toggle persists under localStorage "theme" and dark applies before any bundle runs', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(page.locator('html')).toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
  // With every module script blocked, only the inline head script can set the theme: no flash of light.
  await page.route('**/_astro/*.js', (r) => r.abort());
  await page.goto('/about');
  await expect(page.locator('html')).toHaveClass(/dark/);
  await page.unroute('**/_astro/*.js');
  await page.goto('/about');
  await page.getByRole('button', { name: 'Switch to light theme' }).click();
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
  await page.reload();
  await expect(page.locator('html')).not.toHaveClass(/dark/);
});

test('axe: no WCAG 2.2 AA violations and no third-party requests on any public page, light and dark', async ({ page }) => {
  test.setTimeout(120_000);
  const problems: string[] = [];
  page.on('request', (r) => { const u = new URL(r.url()); if (/^https?:$/.test(u.protocol) && u.hostname !== '127.0.0.1') problems.push(`third-party request: ${r.url()}`); });
  for (const theme of ['light', 'dark']) {
    await page.goto('/');
    await page.evaluate((t) => localStorage.setItem('theme', t), theme);
    for (const path of PUBLIC_PAGES) {
      await page.goto(path);
      const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
      for (const v of r.violations) problems.push(`${theme} ${path}: ${v.id} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    }
  }
  expect(problems).toEqual([]);
});

test('keyboard: Tab reaches every header control with a visible focus ring', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-session', 'out');
  const reached: string[] = [];
  for (let i = 0; i < 16; i++) {
    await page.keyboard.press('Tab');
    const info = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      el.getAnimations().forEach((a) => a.finish()); // buttons' transition-colors fades the ring in over 150 ms
      const s = getComputedStyle(el);
      // WCAG 1.4.11: the ring's contrast with the white page (relative luminance of the outline colour).
      const [r, g, b] = (s.outlineColor.match(/[\d.]+/g) ?? []).map(Number).map((c) => { const v = c / 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
      const contrast = 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05);
      return { name: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' '), outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0, contrast, inHeader: Boolean(el.closest('header')) || el.classList.contains('skip-link') };
    });
    if (!info.inHeader) break;
    expect(info.outline, `focus ring on ${info.name}`).toBe(true);
    expect(info.contrast, `focus ring contrast on ${info.name}`).toBeGreaterThanOrEqual(3);
    reached.push(info.name);
  }
  for (const name of ['Skip to content', 'Home', 'Courses', 'Assessment Centre', 'About', 'Contact', 'My Applications', 'Portal Access (opens in a new tab)', 'Switch to dark theme', 'Log in', 'Get Started']) {
    expect(reached, `reached ${name}`).toContain(name);
  }
  await expect(page.getByRole('link', { name: /Portal Access/ }).first()).toHaveAttribute('target', '_blank');
});

test('header and footer: mobile drawer, Contact Us dialog, and the logged-in menu hides the home Apply Now', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/');
  await expect(page.locator('main').getByRole('link', { name: 'Apply Now', exact: true })).toHaveAttribute('href', '/register');
  const menuButton = page.getByRole('button', { name: 'Open menu' });
  await menuButton.click();
  const drawer = page.getByRole('navigation', { name: 'Mobile' });
  await expect(drawer.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
  await expect(drawer.getByRole('link', { name: 'My Applications' })).toHaveAttribute('href', '/login');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();

  await page.getByRole('button', { name: 'Contact Us' }).click();
  const dialog = page.getByRole('dialog', { name: 'Contact Us' });
  await expect(dialog).toContainText('Mon-Fri 8:00 AM - 5:00 PM');
  await expect(dialog).toContainText('Accreditation number');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await page.setViewportSize({ width: 1280, height: 800 });
  expect((await page.request.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-session', 'in');
  await expect(page.locator('main').getByRole('link', { name: 'Apply Now', exact: true })).toBeHidden();
  await page.locator('[data-user-menu-button]').click();
  const menu = page.locator('#user-menu');
  await expect(menu).toContainText('Admin Account');
  await expect(menu.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard/admin');
  await expect(menu.getByRole('link', { name: 'My Profile' })).toHaveAttribute('href', '/profile');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Applications' })).toHaveAttribute('href', '/my-applications');
  await menu.getByRole('button', { name: 'Log out' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-session', 'out');
});

test('phone 360 px › the menu names who is logged in and their account kind (spec §2), as the desktop menu does', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const login = await page.request.post('/api/auth/login', { data: E2E_ADMIN });
  expect(login.status()).toBe(200);
  const { firstName, lastName } = (await login.json()).user;
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-session', 'in');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('navigation', { name: 'Mobile' });
  await expect(drawer.getByText(`${firstName} ${lastName}`, { exact: true })).toBeVisible();
  await expect(drawer.getByText('Admin Account', { exact: true })).toBeVisible();
  await expect(drawer.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard/admin');
});
