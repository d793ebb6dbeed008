/**
 * Every screen on a phone (issue #14 point 1): at 360 px nothing scrolls sideways or is clipped — no element
 * reaches past the viewport unless it sits inside a scroll container — on every route, as a visitor, a
 * student and an admin, light and dark. The first content shows in the first screen.
 */
import { test, expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { E2E_ADMIN, fillApplicationWizard, uniqueEmail } from './fixtures.ts';

const PUBLIC = ['/', '/courses', '/courses/1', '/about', '/contact', '/assessment-centre', '/login', '/register', '/register-simple',
  '/forgot-password', '/reset-password', '/terms', '/privacy', '/auth', '/no-such-page'];
const STUDENT = ['/dashboard/student', '/my-applications', '/profile', '/apply/2', '/apply'];
const ADMIN = ['/dashboard/admin', '/admin/applications', '/admin/courses', '/admin/announcements', '/admin/students', '/admin/messages',
  '/admin/bookings', '/admin/settings', '/admin/profile', '/admin/external-login', '/admin/branches', '/admin/external-students', '/admin/external-payments'];

/** Elements sticking out past the right (or left) edge, outside any element that scrolls or clips sideways. */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const out: string[] = [];
    const clipsX = (el: Element) => { const o = getComputedStyle(el).overflowX; return o === 'auto' || o === 'scroll' || o === 'hidden' || o === 'clip'; };
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) continue;
      if (r.right <= vw + 0.5 && r.left >= -0.5) continue;
      const cs = getComputedStyle(el);
      if (cs.visibility === 'hidden' || cs.position === 'fixed') continue;
      let p = el.parentElement; let contained = false;
      while (p && p !== document.body && p !== document.documentElement) { if (clipsX(p)) { contained = true; break; } p = p.parentElement; }
      if (contained) continue;
      const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).slice(0, 3).join('.')}` : ''}`;
      out.push(`${name} [${Math.round(r.left)}..${Math.round(r.right)}] "${(el.textContent ?? '').trim().slice(0, 40)}"`);
    }
    // Text that spills out of its box (a long unbroken e-mail address) has no element box of its own.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent?.trim() || !n.parentElement) continue;
      const range = document.createRange(); range.selectNodeContents(n);
      const r = range.getBoundingClientRect();
      if (r.width <= 1 || r.right <= vw + 0.5) continue;
      let p: Element | null = n.parentElement; let contained = false;
      while (p && p !== document.body) { if (clipsX(p) || getComputedStyle(p).position === 'fixed') { contained = true; break; } p = p.parentElement; }
      if (!contained) out.push(`text in ${n.parentElement.tagName.toLowerCase()} [${Math.round(r.left)}..${Math.round(r.right)}] "${n.textContent.trim().slice(0, 40)}"`);
    }
    if (document.documentElement.scrollWidth > vw) out.push(`document ${document.documentElement.scrollWidth}px wide`);
    return out.slice(0, 10);
  });
}

/**
 * Registers an applicant with a long e-mail address through the API of `request`'s browser context, fills in
 * their profile and submits one application to course 1 (two small PDFs); returns the address and the application id.
 */
async function applicantWithApplication(request: APIRequestContext, prefix: string, name: { firstName: string; lastName: string }): Promise<{ email: string; appId: number }> {
  const email = uniqueEmail(prefix);
  expect((await request.post('/api/auth/register', { data: { ...name, email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true } })).status()).toBe(201);
  expect((await request.put('/api/profile', { data: { ...name, phone: '0821234567', nationality: 'za', idNumber: '0104125800086', addressLine1: '12 Church Street', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za' } })).status()).toBe(200);
  const pdf = `data:application/pdf;base64,${Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64')}`;
  const app = await request.post('/api/applications', { data: { courseId: 1, academicHistory: { highSchool: { name: 'Mbilwi Secondary School', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', qualification: 'NSC', grade: '72%' } }, documents: { idDocument: pdf, transcripts: pdf } } });
  expect(app.status()).toBe(201);
  return { email, appId: (await app.json()).application.id };
}

/** How far (px) the content of a scroll region reaches past its right edge; 0 or less when it fits. */
const sidewaysScroll = (region: Locator) => region.evaluate((e) => e.scrollWidth - e.clientWidth);

async function visit(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  // Islands render their data; give lists a moment to replace their loading state.
  await page.waitForTimeout(300);
}

async function checkAll(page: Page, paths: string[], who: string) {
  const problems: string[] = [];
  if (!page.url().startsWith('http')) await page.goto('/');
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => localStorage.setItem('theme', JSON.stringify(t)), theme);
    for (const path of paths) {
      await visit(page, path);
      const bad = await overflowing(page);
      if (bad.length) problems.push(`${who} ${theme} ${path} (${page.url()}):\n    ${bad.join('\n    ')}`);
      // The first content (the page's h1) shows in the first screen.
      const h1 = page.locator('main h1, [role=main] h1, h1').first();
      if (await h1.count()) {
        const box = await h1.boundingBox();
        if (box && box.y > 640) problems.push(`${who} ${theme} ${path}: first heading starts at ${Math.round(box.y)} px, below the first screen`);
      }
    }
  }
  expect(problems, problems.join('\n')).toEqual([]);
}

test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

/** The narrowest screen WCAG 1.4.10 (Reflow) asks for, and a 360 px phone set to a larger display size. */
const NARROW = { width: 320, height: 568 };

/** A dialog on a phone held sideways (280 px tall) lies within the screen, and each of `buttons` can be scrolled into view. */
async function expectFitsSideways(dialog: Locator, buttons: string[]): Promise<void> {
  const box = (await dialog.boundingBox())!;
  expect(box.y, 'dialog top').toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, 'dialog bottom').toBeLessThanOrEqual(280);
  for (const name of buttons) {
    const button = dialog.getByRole('button', { name });
    await button.scrollIntoViewIfNeeded();
    await expect(button).toBeInViewport({ ratio: 1 });
  }
}

test('phone 360 px › visitor: no route scrolls sideways, light and dark', async ({ page }) => {
  await page.goto('/');
  await checkAll(page, PUBLIC, 'visitor');
  // At 320 px the header's menu button stays on screen (the college's name wraps), and the privacy notice's
  // long complaints address wraps.
  await page.setViewportSize(NARROW);
  await checkAll(page, ['/', '/privacy'], 'visitor 320 px');
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeInViewport({ ratio: 1 });
});

test('phone 360 px › the fees table shows all four columns; narrower, it scrolls in a region the keyboard can reach', async ({ page }) => {
  await visit(page, '/about');
  const region = page.getByRole('region', { name: 'Fees table' });
  const fits = () => region.evaluate((e) => ({ scroll: e.scrollWidth, width: e.clientWidth }));
  const at360 = await fits();
  expect(at360.scroll, 'Total column clipped at 360 px').toBeLessThanOrEqual(at360.width);
  await page.setViewportSize({ width: 320, height: 640 });
  const at320 = await fits();
  expect(at320.scroll).toBeGreaterThan(at320.width);
  const axe = await new AxeBuilder({ page }).include('#fees').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await region.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => region.evaluate((e) => e.scrollLeft)).toBeGreaterThan(0);
});

test('phone 360 px › student with a long e-mail address and an application: no route scrolls sideways', async ({ page }) => {
  const { email, appId } = await applicantWithApplication(page.request, 'a.very.long.name.for.an.applicant.with.many.parts', { firstName: 'Thandiwe-Nomvula', lastName: 'Mokoena-Ramaphosa' });
  await checkAll(page, [...STUDENT, `/applications/${appId}`], 'student');

  // The dashboard's milestones: no label runs into the next one.
  await visit(page, '/dashboard/student');
  const labels = await page.getByRole('list', { name: 'Milestones' }).locator('li > span:last-child').evaluateAll((els) => els.map((e) => {
    const range = document.createRange(); range.selectNodeContents(e.firstChild!);
    const r = range.getBoundingClientRect();
    return { text: e.firstChild!.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
  }));
  expect(labels).toHaveLength(5);
  const collisions = labels.flatMap((a, i) => labels.slice(i + 1).filter((b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom).map((b) => `${a.text} × ${b.text}`));
  expect(collisions).toEqual([]);

  // The dashboard's documents and payments are cards on a phone, nothing to scroll sideways.
  for (const [tab, region] of [['Documents', 'Your uploaded documents'], ['Payments', 'Your payments']]) {
    await page.getByRole('tab', { name: tab, exact: true }).click();
    const table = page.getByRole('region', { name: region });
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    expect(await sidewaysScroll(table), `${region} scroll sideways`).toBeLessThanOrEqual(0);
  }

  // Review & Submit repeats the e-mail address in full: it wraps inside its card, and the steps beside it keep to the screen.
  await visit(page, '/apply/2');
  await fillApplicationWizard(page, {
    dateOfBirth: '2001-04-12', nationality: 'za', addressLine1: '12 Church Street', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za',
    highSchool: { name: 'Mbilwi Secondary School', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', qualification: 'NSC', grade: '72%' },
    documents: { idDocument: { name: 'id.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') }, transcripts: { name: 'results.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') } },
    card: { name: 'T Mokoena', number: '5555 5555 5555 4444', expiry: '10/29', cvc: '321' },
  });
  await expect(page.getByText(email)).toBeVisible();
  expect(await overflowing(page), 'Review & Submit').toEqual([]);
  await page.setViewportSize(NARROW);
  expect(await overflowing(page), 'Review & Submit at 320 px').toEqual([]);
  const submit = page.getByRole('button', { name: 'Submit Application' });
  await submit.scrollIntoViewIfNeeded();
  await expect(submit).toBeInViewport({ ratio: 1 });

  // A phone held sideways, browser bars showing (740 × 280): a confirmation taller than the screen scrolls inside
  // itself, so its title and both buttons can be reached.
  await visit(page, '/profile');
  await page.setViewportSize({ width: 740, height: 280 });
  await page.getByRole('button', { name: 'Delete my account' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete your account?' });
  await expectFitsSideways(confirm, ['Cancel', 'Delete my account']);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();

  // "Your session has ended" over unsaved details, same sideways phone: it fits, and its field and buttons can be reached.
  await page.getByLabel('First name').fill('Thandiwe');
  expect((await page.request.post('/api/auth/logout')).status()).toBeLessThan(300);
  const save = page.getByRole('button', { name: 'Save changes' });
  await save.scrollIntoViewIfNeeded();
  await save.click();
  const again = page.getByRole('dialog', { name: 'Your session has ended' });
  await expectFitsSideways(again, ['Cancel', 'Log in and save']);
  await again.getByRole('button', { name: 'Cancel' }).click();
  await expect(again).toBeHidden();
});

test('phone 360 px › text at 200 % (WCAG 1.4.4, 1.4.10): the public pages and the student dashboard do not scroll sideways', async ({ page }) => {
  const problems: string[] = [];
  for (const path of [...PUBLIC, '/dashboard/student']) {
    // The public pages as a visitor (a student is sent on from /login), then the dashboard of an applicant.
    if (path === '/dashboard/student') await applicantWithApplication(page.request, 'a.very.long.name.for.an.applicant.with.many.parts', { firstName: 'Thandiwe-Nomvula', lastName: 'Mokoena-Ramaphosa' });
    await visit(page, path);
    const wide = await page.evaluate(async () => {
      document.documentElement.style.fontSize = '200%';
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const { scrollWidth, clientWidth } = document.documentElement;
      return scrollWidth > clientWidth + 1 ? `${scrollWidth} px wide in ${clientWidth}` : '';
    });
    if (wide) problems.push(`${path}: ${wide}:\n    ${(await overflowing(page)).join('\n    ')}`);
  }
  // The course title is not cut off.
  await visit(page, '/courses/1');
  const clipped = await page.getByRole('heading', { level: 1 }).evaluate((h) => { document.documentElement.style.fontSize = '200%'; return h.scrollWidth > h.clientWidth + 1 || h.getBoundingClientRect().right > document.documentElement.clientWidth + 1; });
  expect.soft(clipped, 'course title clipped').toBe(false);
  expect(problems, problems.join('\n')).toEqual([]);
});

test('phone 360 px › admin: every admin screen fits, tables become cards or scroll regions, navigation is a menu', async ({ page, browser, baseURL }) => {
  // A pending application with a long e-mail address, so the applications list has a card with actions to show.
  const applicant = await browser.newContext({ baseURL });
  const { email, appId } = await applicantWithApplication(applicant.request, 'a.very.long.name.for.an.applicant.awaiting.review', { firstName: 'Mpho', lastName: 'Netshiongolwe' });
  const ref = `APP-${appId}`;
  await applicant.close();

  expect((await page.request.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
  expect((await page.request.post('/api/external/login', { data: E2E_ADMIN })).status()).toBe(200);
  // A student and a payment in the administration system, so its two ledgers have rows.
  const enrolled = await page.request.post('/api/external/students', { data: { name: 'Mpho Netshiongolwe', email, phone: '0821234567', branchId: '2', course: 'Diploma in Nursing' } });
  expect(enrolled.status()).toBe(201);
  const paid = await page.request.post('/api/external/payments', { data: { studentId: (await enrolled.json()).student.id, amount: '1500.00', method: 'card', reference: `PHONE-${Date.now()}`, description: 'Registration fee' } });
  expect(paid.status()).toBe(201);
  await checkAll(page, ADMIN, 'admin');
  // Applications are cards on a phone: status and the Approve/Reject buttons show without scrolling sideways.
  await visit(page, '/admin/applications');
  await page.getByLabel('Search').fill(ref);
  const row = page.getByTestId('app-row').filter({ hasText: ref });
  await expect(row).toHaveCount(1);
  const list = page.getByRole('region', { name: /^Applications, page/ });
  expect(await sidewaysScroll(list), 'the list scrolls sideways').toBeLessThanOrEqual(0);
  for (const target of [row.getByText('Pending', { exact: true }), row.getByRole('button', { name: `Approve ${ref}` }), row.getByRole('button', { name: `Reject ${ref}` })]) {
    const box = (await target.boundingBox())!;
    expect(box.x + box.width, await target.textContent() ?? '').toBeLessThanOrEqual(360);
  }
  // And the dashboard's latest application fees.
  await visit(page, '/dashboard/admin');
  await page.getByRole('tab', { name: 'Payments' }).click();
  const fees = page.getByRole('region', { name: 'Latest application fees' });
  await expect(fees.getByText(ref)).toBeVisible();
  expect(await sidewaysScroll(fees), 'latest application fees scroll sideways').toBeLessThanOrEqual(0);
  // So are courses and announcements: every row's actions show without scrolling sideways.
  for (const [path, region, rowId] of [['/admin/courses', 'All courses', 'course-row'], ['/admin/announcements', 'Announcements table', 'announcement-row']]) {
    await visit(page, path);
    const table = page.getByRole('region', { name: region });
    expect(await sidewaysScroll(table), `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    const edit = page.getByTestId(rowId).first().getByRole('button', { name: /^Edit / });
    const box = (await edit.boundingBox())!;
    expect(box.x + box.width, `${path}: Edit`).toBeLessThanOrEqual(360);
  }
  // The administration system's ledgers too.
  for (const [path, region, text] of [['/admin/external-students', 'External students', email], ['/admin/external-payments', 'External payments, newest first', 'Registration fee']]) {
    await visit(page, path);
    const table = page.getByRole('region', { name: region });
    await expect(table.getByText(text).first()).toBeVisible();
    expect(await sidewaysScroll(table), `${path} scrolls sideways`).toBeLessThanOrEqual(0);
  }
  // The admin navigation is collapsed into a menu on a phone: its links are hidden until it is opened.
  await visit(page, '/admin/applications');
  const menu = page.getByRole('button', { name: /admin menu/i });
  await expect(menu).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Courses' })).toBeHidden();
  await menu.click();
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Courses' }).click();
  await expect(page).toHaveURL(/\/admin\/courses$/);
  // The admin's own profile at 320 px: the details and the button to edit them wrap instead of running off.
  await page.setViewportSize(NARROW);
  await checkAll(page, ['/admin/profile'], 'admin 320 px');
});
