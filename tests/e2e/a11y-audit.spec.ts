/**
 * What axe cannot see (accessibility audit, November 2026): a focused field hidden under the sticky header
 * (WCAG 2.4.11), wizard steps without their own page title (2.4.2), live regions that talk over the applicant
 * (4.1.3, TalkBack), controls that vanish in forced colours (1.4.11), motion with prefers-reduced-motion (2.3.3),
 * small targets (2.5.8), a profile save failure that disappears with its toast (3.3.1) and input purposes (1.3.5).
 */
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { fillHighSchool, fillPersonalDetails, uniqueEmail } from './fixtures.ts';

/**
 * Focuses the control after `selector`, scrolls the page until `selector` is at the very top of the window (in view,
 * so the browser does not scroll to it, but where the sticky header is), then presses Shift+Tab; returns the focused
 * field's box and the header's bottom edge (px from the top of the window).
 */
async function shiftTabBackTo(page: Page, selector: string): Promise<{ focused: string; top: number; bottom: number; headerBottom: number }> {
  const field = page.locator(selector);
  await field.focus();
  await page.keyboard.press('Tab');
  await page.evaluate((sel) => { window.scrollBy(0, document.querySelector(sel)!.getBoundingClientRect().top); }, selector);
  expect(Math.round(await field.evaluate((el) => el.getBoundingClientRect().top))).toBe(0);
  await page.keyboard.press('Shift+Tab');
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const r = el.getBoundingClientRect();
    return { focused: `#${el.id}`, top: r.top, bottom: r.bottom, headerBottom: document.querySelector('header')!.getBoundingClientRect().bottom };
  });
}

test.describe('focus not obscured by the sticky header (WCAG 2.4.11)', () => {
  for (const size of [{ width: 360, height: 640 }, { width: 1280, height: 800 }, { width: 320, height: 256 }]) {
    test(`Shift+Tab to the password on /login at ${size.width}×${size.height} stops below the header`, async ({ page }) => {
      await page.setViewportSize(size);
      await page.goto('/login');
      await expect(page.locator('#login-password')).toBeEditable();
      // Room to scroll the password to the top (a short page does not scroll that far at 1280×800 otherwise).
      await page.evaluate(() => { document.body.style.paddingBottom = '200vh'; });
      const box = await shiftTabBackTo(page, '#login-password');
      expect(box.focused).toBe('#login-password');
      expect(box.top, `field at ${box.top}–${box.bottom} px, header ends at ${box.headerBottom} px`).toBeGreaterThanOrEqual(Math.max(0, box.headerBottom));
    });
  }
});

const PERSONAL = { dateOfBirth: '2001-04-12', nationality: 'za', addressLine1: '12 Church Street', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za' };

/** Registers a student through the API in the page's own cookie jar; returns the address. */
async function signUp(page: Page): Promise<string> {
  const email = uniqueEmail('a11y');
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Thandi', lastName: 'Mokoena', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true },
  });
  expect(res.status()).toBe(201);
  return email;
}

test('each step of the application wizard has its own page title (WCAG 2.4.2)', async ({ page }) => {
  await signUp(page);
  await page.goto('/apply/1');
  await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
  await expect(page).toHaveTitle(/^Personal Information – Step 1 of 5 – Apply \| \S/);
  const pageTitle = (await page.title()).replace('Personal Information – Step 1 of 5 – ', '');
  await fillPersonalDetails(page, PERSONAL);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Academic History' })).toBeFocused();
  await expect(page).toHaveTitle(`Academic History – Step 2 of 5 – ${pageTitle}`);
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page).toHaveTitle(`Personal Information – Step 1 of 5 – ${pageTitle}`);
});

test('each step of the full registration wizard has its own page title (WCAG 2.4.2)', async ({ page }) => {
  await page.goto('/register?mode=full');
  await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
  await expect(page).toHaveTitle(/^Personal Information – Step 1 of 5 – Register \| \S/);
  const pageTitle = (await page.title()).replace('Personal Information – Step 1 of 5 – ', '');
  await page.getByLabel('First Name').fill('Thandi');
  await page.getByLabel('Last Name').fill('Mokoena');
  await page.getByLabel('Email').fill(uniqueEmail('a11y-reg'));
  await page.getByLabel('Password', { exact: true }).fill('secret123');
  await page.getByLabel('Confirm Password').fill('secret123');
  await page.getByLabel('Phone').fill('0821234567');
  await page.getByLabel('Nationality').selectOption('za');
  await page.getByLabel('ID number', { exact: true }).fill('0104125800086');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Address' })).toBeFocused();
  await expect(page).toHaveTitle(`Address – Step 2 of 5 – ${pageTitle}`);
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const HIGH_SCHOOL = { name: 'Mbilwi Secondary', qualification: 'National Senior Certificate', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', grade: '72%' };

/**
 * Records what the page's live regions would say: every time the text of an element with aria-live (not off) or
 * role status/alert/log changes to something non-empty, that text is pushed to window.__spoken (in order).
 */
async function recordLiveRegions(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const spoken: string[] = [];
    (window as unknown as { __spoken: string[] }).__spoken = spoken;
    const last = new WeakMap<Element, string>();
    const liveOf = (n: Node | null): Element | null => {
      for (let el = n instanceof Element ? n : n?.parentElement ?? null; el; el = el.parentElement) {
        const live = el.getAttribute('aria-live');
        if ((live && live !== 'off') || /^(status|alert|log)$/.test(el.getAttribute('role') ?? '')) return el;
      }
      return null;
    };
    const seen = (el: Element) => {
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
      if (text && text !== last.get(el)) spoken.push(text);
      last.set(el, text);
    };
    new MutationObserver((records) => {
      const regions = new Set<Element>();
      for (const r of records) {
        const region = liveOf(r.target);
        if (region) regions.add(region);
        // A live region that arrives with its words (the progress line of an upload).
        r.addedNodes.forEach((n) => { if (n instanceof Element) n.querySelectorAll('[aria-live]:not([aria-live="off"]),[role=status],[role=alert],[role=log]').forEach((e) => regions.add(e)); });
      }
      regions.forEach(seen);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}
const spokenSoFar = (page: Page) => page.evaluate(() => (window as unknown as { __spoken: string[] }).__spoken.slice());

test('the draft status speaks only when a save does not reach the server, and uploads speak their start and end, not every percent', async ({ page }) => {
  await recordLiveRegions(page);
  await signUp(page);
  await page.goto('/apply/1');
  // The wizard saves the draft it opened with: shown, not spoken.
  await expect(page.getByTestId('draft-status')).toHaveText('Draft saved');
  await fillPersonalDetails(page, PERSONAL);
  await expect(page.getByTestId('draft-status')).toHaveText('Draft saved');
  await page.locator('#f-addressLine1').fill('14 Church Street');
  await expect(page.getByTestId('draft-status')).toHaveText('Draft saved');
  let spoken = await spokenSoFar(page);
  expect(spoken.filter((t) => /draft/i.test(t)), spoken.join(' | ')).toEqual([]);

  // A save that only reaches this device is spoken, once; so is the save that gets through after it.
  await page.context().setOffline(true);
  await page.locator('#f-city').fill('Sibasa');
  await expect(page.getByTestId('draft-status')).toHaveText('Draft saved on this device; it will sync when you are back online.');
  await page.locator('#f-city').fill('Sibasa West');
  await expect(page.getByTestId('draft-announcement')).toHaveText('Draft saved on this device; it will sync when you are back online.');
  await page.context().setOffline(false);
  await expect(page.getByTestId('draft-announcement')).toHaveText('Draft saved');
  spoken = await spokenSoFar(page);
  expect(spoken.filter((t) => /draft/i.test(t)), spoken.join(' | ')).toEqual(['Draft saved on this device; it will sync when you are back online.', 'Draft saved']);

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Academic History' })).toBeFocused();
  await fillHighSchool(page, HIGH_SCHOOL);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Supporting Documents' })).toBeFocused();
  const before = (await spokenSoFar(page)).length;
  // 300 KB: several progress events on the way.
  await page.locator('#f-documents-idDocument').setInputFiles({ name: 'id-document.pdf', mimeType: 'application/pdf', buffer: Buffer.concat([PDF, Buffer.alloc(300 * 1024)]) });
  await expect(page.getByTestId('file-idDocument')).toHaveText('id-document.pdf');
  await expect(page.getByTestId('uploaded-idDocument')).toHaveText('id-document.pdf uploaded');
  spoken = (await spokenSoFar(page)).slice(before);
  expect(spoken.filter((t) => /upload/i.test(t)), spoken.join(' | ')).toEqual(['Uploading id-document.pdf…', 'id-document.pdf uploaded']);
  // The progress bar still tells its value to anyone who asks (checked in resumable-upload.spec).
});

test('the wizard\'s loading states are shown, not spoken: "Checking your session…" and "Loading…" are not live regions (WCAG 4.1.3)', async ({ page }) => {
  // The pre-rendered shell shows the session check as text, outside any live region.
  const shell = await (await page.request.get('/apply/1')).text();
  const at = shell.indexOf('Checking your session…');
  expect(at, 'the shell shows the session check').toBeGreaterThan(0);
  expect.soft(shell.slice(shell.lastIndexOf('<div', at), at), 'the session check is not a live region').not.toMatch(/role="(status|alert|log)"|aria-live="(polite|assertive)"/);

  await recordLiveRegions(page);
  await signUp(page);
  const loading = /Checking your session|Loading|Redirecting/;
  for (const step of ['Personal Information', 'Academic History']) {
    await page.goto('/apply/1');
    await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
    if (step === 'Academic History') {
      await fillPersonalDetails(page, PERSONAL);
      await page.getByRole('button', { name: 'Next' }).click();
      await expect(page.getByRole('heading', { name: 'Academic History' })).toBeFocused();
    }
    const spoken = await spokenSoFar(page);
    expect(spoken.filter((t) => loading.test(t)), `spoken up to ${step}: ${spoken.join(' | ')}`).toEqual([]);
  }
});

/** A student with one pending application (course 1, two small PDFs), made through the API in the page's cookie jar. */
async function studentWithApplication(page: Page): Promise<void> {
  await signUp(page);
  expect((await page.request.put('/api/profile', { data: { firstName: 'Thandi', lastName: 'Mokoena', phone: '0821234567', nationality: 'za', idNumber: '0104125800086', addressLine1: '12 Church Street', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za' } })).status()).toBe(200);
  const pdf = `data:application/pdf;base64,${PDF.toString('base64')}`;
  const app = await page.request.post('/api/applications', { data: { courseId: 1, academicHistory: { highSchool: { name: 'Mbilwi Secondary School', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', qualification: 'NSC', grade: '72%' } }, documents: { idDocument: pdf, transcripts: pdf } } });
  expect(app.status()).toBe(201);
}

/** The border of `selector`'s first match, or of the element itself: width in px (top, bottom), style and colours. */
const borderOf = (page: Page, selector: string) => page.locator(selector).first().evaluate((el) => {
  const cs = getComputedStyle(el);
  return { top: parseFloat(cs.borderTopWidth), bottom: parseFloat(cs.borderBottomWidth), style: cs.borderTopStyle, bottomColor: cs.borderBottomColor, topColor: cs.borderTopColor, background: cs.backgroundColor };
});
/** What the system colour `name` (Highlight, Canvas…) computes to on this page. */
const systemColour = (page: Page, name: string) => page.evaluate((n) => {
  const probe = document.createElement('div');
  probe.style.backgroundColor = n;
  document.body.append(probe);
  const c = getComputedStyle(probe).backgroundColor;
  probe.remove();
  return c;
}, name);

test('in forced colours, buttons, the chosen tab, progress bars and status badges keep their edges (WCAG 1.4.11)', async ({ page }) => {
  await page.emulateMedia({ forcedColors: 'active' });
  await page.goto('/login');
  const logIn = await borderOf(page, 'form button[type="submit"].btn-primary');
  expect(logIn.top, 'the Log in button has a border').toBeGreaterThanOrEqual(1);
  expect(logIn.style).toBe('solid');

  await page.goto('/register?mode=full');
  await expect(page.getByRole('progressbar', { name: 'Registration progress' })).toBeVisible();
  const highlight = await systemColour(page, 'Highlight');
  expect((await borderOf(page, '[role=progressbar][aria-label="Registration progress"]')).top, 'the registration progress track has a border').toBeGreaterThanOrEqual(1);
  expect((await borderOf(page, '[role=progressbar][aria-label="Registration progress"] > div')).background, 'its fill is Highlight').toBe(highlight);

  await studentWithApplication(page);
  await page.goto('/dashboard/student');
  await expect(page.getByRole('progressbar', { name: 'Overall progress' })).toBeVisible();
  expect((await borderOf(page, '[role=progressbar][aria-label="Overall progress"]')).top).toBeGreaterThanOrEqual(1);
  expect((await borderOf(page, '[role=progressbar][aria-label="Overall progress"] > div')).background).toBe(highlight);
  expect((await borderOf(page, 'main [data-status]')).top, 'the status badge has a border').toBeGreaterThanOrEqual(1);
  const chosen = await borderOf(page, '[aria-label="Dashboard sections"] [role=tab][aria-selected=true]');
  const other = await borderOf(page, '[aria-label="Dashboard sections"] [role=tab][aria-selected=false]');
  expect(chosen.bottomColor, 'the chosen dashboard tab is underlined in Highlight').toBe(highlight);
  expect(other.bottomColor, 'the other tabs are not').not.toBe(chosen.bottomColor);

  await page.goto('/my-applications');
  await expect(page.getByRole('tab', { name: 'All' })).toBeVisible();
  const all = await borderOf(page, '[aria-label="Filter applications"] [role=tab][aria-selected=true]');
  const pending = await borderOf(page, '[aria-label="Filter applications"] [role=tab][aria-selected=false]');
  expect(all.bottomColor).toBe(highlight);
  expect(pending.bottomColor).not.toBe(all.bottomColor);
});

test('in normal colours the new borders do not change the looks: the button border is transparent, the badge edge is coloured as its ring was', async ({ page }) => {
  await page.goto('/login');
  const logIn = await borderOf(page, 'form button[type="submit"].btn-primary');
  expect(logIn.topColor, 'the new border is transparent').toBe('rgba(0, 0, 0, 0)');
  await studentWithApplication(page);
  await page.goto('/dashboard/student');
  await expect(page.locator('main [data-status]').first()).toBeVisible();
  // pending is yellow: a yellow-300 edge on yellow-100, as the ring was.
  const badge = await page.locator('main [data-status="pending"]').first().evaluate((el) => ({ border: getComputedStyle(el).borderTopColor, shadow: getComputedStyle(el).boxShadow }));
  expect(badge.border).not.toBe('rgba(0, 0, 0, 0)');
});

test('with prefers-reduced-motion, spinners, skeletons and transitions stand still (WCAG 2.3.3)', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/login');
  const motion = await page.evaluate(() => {
    const host = document.createElement('div');
    host.innerHTML = '<span class="animate-spin"></span><div class="skeleton"></div><button class="btn-primary">x</button>';
    document.body.append(host);
    const secs = (v: string) => Math.max(...v.split(',').map((x) => parseFloat(x) * (x.trim().endsWith('ms') ? 0.001 : 1)));
    const [spin, skeleton, button] = Array.from(host.children).map((e) => getComputedStyle(e));
    return { spin: secs(spin!.animationDuration), skeleton: secs(skeleton!.animationDuration), button: secs(button!.transitionDuration), spinCount: spin!.animationIterationCount };
  });
  expect(motion.spin).toBeLessThan(0.001);
  expect(motion.spinCount).toBe('1');
  expect(motion.skeleton).toBeLessThan(0.001);
  expect(motion.button).toBeLessThan(0.001);
});

/** The element's box in CSS px. */
const sizeOf = (page: Page, selector: string) => page.locator(selector).first().evaluate((el) => { const r = el.getBoundingClientRect(); return { width: r.width, height: r.height }; });

test('targets are big enough to tap: toast close, Remember me, the admin table checkboxes and sort buttons (WCAG 2.5.8)', async ({ page }) => {
  await page.goto('/apply/2'); // logged out: to /login with a toast
  await expect(page).toHaveURL(/\/login/);
  const close = await sizeOf(page, '[data-testid="toast"] button[aria-label="Close"]');
  expect(close.width, 'toast close width').toBeGreaterThanOrEqual(44);
  expect(close.height, 'toast close height').toBeGreaterThanOrEqual(44);
  const box = await sizeOf(page, '#login-rememberMe');
  expect(box.width).toBeGreaterThanOrEqual(20);
  expect(box.height).toBeGreaterThanOrEqual(20);
  expect((await page.locator('#login-rememberMe').evaluate((el) => el.closest('label')!.getBoundingClientRect().height))).toBeGreaterThanOrEqual(44);

  await page.setViewportSize({ width: 1280, height: 800 });
  expect((await page.request.post('/api/auth/login', { data: { email: 'admin@college.example', password: 'Admin-pass-2026' } })).status()).toBe(200);
  await page.goto('/admin/applications');
  const selectAll = page.getByRole('checkbox', { name: 'Select all pending applications on this page' });
  await expect(selectAll).toBeVisible();
  const all = await selectAll.boundingBox();
  expect(all!.width).toBeGreaterThanOrEqual(24);
  expect(all!.height).toBeGreaterThanOrEqual(24);
  const sort = await page.getByRole('columnheader', { name: 'Applicant' }).getByRole('button').boundingBox();
  expect(sort!.height, 'sort button height').toBeGreaterThanOrEqual(24);
});

test('a profile save that fails without field errors says so beside Save until the next try (WCAG 3.3.1)', async ({ page }) => {
  await signUp(page);
  await page.goto('/profile');
  await expect(page.locator('#pf-city')).toBeEditable();
  await page.route('**/api/profile', (r) => (r.request().method() === 'PUT' ? r.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"message":"Service unavailable"}}' }) : r.continue()));
  await page.locator('#pf-city').fill('Sibasa');
  await page.getByRole('button', { name: 'Save changes' }).click();
  const alert = page.getByTestId('profile-save-error');
  await expect(alert).toHaveText('Your changes were not saved. Something went wrong. Please try again.');
  await expect(alert).toHaveAttribute('role', 'alert');
  // The toast goes; the message stays.
  await page.getByTestId('toast').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('toast')).toHaveCount(0);
  await expect(alert).toHaveText(/Your changes were not saved/);
  await page.unroute('**/api/profile');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByTestId('toast').getByText('Profile updated')).toBeVisible();
  await expect(alert).toHaveText('');
});

test('the country selects say what they are for (WCAG 1.3.5); /admin/students headings go down one level at a time (WCAG 1.3.1)', async ({ page }) => {
  await signUp(page);
  await page.goto('/profile');
  await expect(page.locator('#pf-country')).toHaveAttribute('autocomplete', 'country');
  await page.goto('/apply/1');
  await expect(page.locator('#f-country')).toHaveAttribute('autocomplete', 'country');
  expect((await page.request.post('/api/auth/login', { data: { email: 'admin@college.example', password: 'Admin-pass-2026' } })).status()).toBe(200);
  await page.goto('/admin/students');
  await expect(page.getByTestId('student').first()).toBeVisible();
  const levels = await page.locator('main').evaluate((m) => Array.from(m.querySelectorAll('h1,h2,h3,h4,h5,h6')).map((h) => Number(h.tagName[1])));
  const jumps = levels.filter((l, i) => i > 0 && l > levels[i - 1]! + 1);
  expect(jumps, `heading levels ${levels.join(',')}`).toEqual([]);
});

test('a page with a toast showing passes axe (a toast is a list item of the notifications list; its text is a status)', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(uniqueEmail('toast-axe'));
  await page.getByLabel('Password', { exact: true }).fill('wrong-password-1');
  await page.getByRole('button', { name: /^Log in$/ }).click();
  await expect(page.getByTestId('toast').getByRole('status').filter({ hasText: 'Login failed' })).toBeVisible();
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa']).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 80)).join(' | ')}`)).toEqual([]);
});
