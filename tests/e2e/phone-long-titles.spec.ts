/**
 * Titles an admin writes, on a phone (WCAG 1.4.10 reflow; review of the 360 px layouts, November 2026): a grid list
 * without a shrinkable column (grid-cols-1 or min-w-0 items) grows to the longest word of a title in it, so one
 * announcement or course titled with a 60-character token (a pasted link, a code) widened the whole page. And the seed
 * course 'Small Business Entrepreneurship' at 320 px with text at 200 %: its long word must fit without a sideways
 * scroll on any page that names it. And a status badge beside a long name or a count keeps its width (shrink-0) without
 * pushing its row past the screen. Text is enlarged as a reader's browser setting does (CDP Page.setFontSizes).
 */
import { test, expect, type Page } from '@playwright/test';
import { adminLogin, studentApplies, uniqueSurname } from './admin-seed.ts';
import { uniqueEmail } from './fixtures.ts';

const PHONE = { width: 360, height: 740 };
/** 60 characters, no space or hyphen: nothing for the browser to break at. */
const TOKEN = 'Registration2027WeekOneTimetableForAllCampusesAndBranchesXYZ';

/** Sets the browser's default text size to `percent` % of 16 px for this page (and its later navigations). */
async function setTextSize(page: Page, percent: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Page.setFontSizes', { fontSizes: { standard: Math.round((16 * percent) / 100), fixed: Math.round((13 * percent) / 100) } });
}

/** The page's width against the viewport's, with the widest elements named when it is too wide. */
async function widthProblem(page: Page, where: string): Promise<string | null> {
  return page.evaluate((where) => {
    const vw = document.documentElement.clientWidth;
    const sw = document.documentElement.scrollWidth;
    if (sw <= vw) return null;
    const culprits = Array.from(document.body.querySelectorAll('*'))
      .map((el) => ({ el, r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.right > vw + 0.5 && r.width > 1)
      .slice(-3)
      .map(({ el, r }) => `${el.tagName.toLowerCase()}.${String(el.className).trim().split(/\s+/).slice(0, 4).join('.')} [${Math.round(r.left)}..${Math.round(r.right)}]`);
    return `${where}: ${sw} px wide in ${vw} (${culprits.join('; ')})`;
  }, where);
}

const pageWidth = (page: Page) => page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth }));

/** Opens `path` and waits for its islands to settle (no busy region left, no request in flight). */
async function open(page: Page, path: string, text?: string | RegExp): Promise<void> {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  if (text) await expect(page.getByText(text).filter({ visible: true }).first()).toBeVisible();
  await expect(page.locator('[aria-busy="true"][role="status"]')).toHaveCount(0);
}

test.describe('admin-written titles with a 60-character token on a 360×740 phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

  test('home, catalogue, course page, the admin lists and the student dashboard stay 360 px wide', async ({ page, browser, baseURL }) => {
    test.setTimeout(240_000);
    const admin = await browser.newContext({ baseURL });
    await adminLogin(admin.request);
    const courseTitle = `Diploma ${TOKEN}`;
    const announcementTitle = `Notice ${TOKEN}`;
    const course = await admin.request.post('/api/courses', { data: { title: courseTitle, description: 'A course whose name has one very long token.', duration: 6, department: 'Business', tuitionFee: 'R5,000', startDate: 'July 2027', isActive: true } });
    expect(course.status()).toBe(201);
    const courseId = (await course.json()).course.id as number;
    // The student applies for it (their dashboard and applications list name it), then the announcement is sent to
    // every student as a portal notification (their dashboard lists it).
    await studentApplies(page.request, courseId, 'Thandi', 'Longword');
    const ann = await admin.request.post('/api/announcements', { data: { title: announcementTitle, content: 'Timetables for the first week are on the notice boards.', imageUrl: '', active: true, sendNotification: true } });
    expect(ann.status()).toBe(201);
    // The public pages are rebuilt after the saves; wait for both titles to be live.
    await expect.poll(async () => (await page.request.get(`/courses/${courseId}`)).status(), { timeout: 90_000, intervals: [250] }).toBe(200);
    await expect.poll(async () => (await (await page.request.get('/')).text()).includes(TOKEN), { timeout: 90_000, intervals: [250] }).toBe(true);

    const problems: string[] = [];
    const adminPage = await admin.newPage();
    await adminPage.setViewportSize({ width: 360, height: 740 });
    for (const percent of [100, 200]) {
      await setTextSize(page, percent);
      await setTextSize(adminPage, percent);
      for (const [path, text] of [
        ['/', announcementTitle], ['/about', announcementTitle], ['/courses', courseTitle], [`/courses/${courseId}`, courseTitle],
        ['/dashboard/student', courseTitle], ['/my-applications', courseTitle],
      ]) {
        await open(page, path, text);
        const p = await widthProblem(page, `${path} at ${percent} %`);
        if (p) problems.push(p);
      }
      // The dashboard's Applications tab lists the course beside its status badge.
      await open(page, '/dashboard/student', courseTitle);
      await page.getByRole('tab', { name: 'Applications', exact: true }).click();
      await expect(page.getByRole('tabpanel').getByText(courseTitle)).toBeVisible();
      const tab = await widthProblem(page, `/dashboard/student, Applications tab, at ${percent} %`);
      if (tab) problems.push(tab);

      for (const [path, text, region] of [
        ['/dashboard/admin', courseTitle, null], ['/admin/students', courseTitle, null],
        ['/admin/courses', courseTitle, 'All courses'], ['/admin/announcements', announcementTitle, 'Announcements table'], ['/admin/applications', courseTitle, /^Applications, page/],
      ] as const) {
        await open(adminPage, path, text);
        const p = await widthProblem(adminPage, `${path} at ${percent} %`);
        if (p) problems.push(p);
        // Below 1024 px a table is one card per row: the title breaks inside its card, rather than running past the
        // card's edge (where the table's region would scroll sideways to show it).
        if (region) {
          const table = adminPage.getByRole('region', { name: region });
          const edge = await table.evaluate((e) => e.getBoundingClientRect().left + e.clientWidth);
          const title = await table.getByText(text).first().evaluate((e) => { const r = document.createRange(); r.selectNodeContents(e); return Math.max(...Array.from(r.getClientRects()).map((c) => c.right)); });
          if (title > edge + 0.5) problems.push(`${path} at ${percent} %: the title runs to ${Math.round(title)} px, past its table's edge at ${Math.round(edge)} px`);
          // Nor does any other cell: a card's value goes below its label when the two do not fit side by side.
          const sideways = await table.evaluate((e) => e.scrollWidth - e.clientWidth);
          if (sideways > 1) problems.push(`${path} at ${percent} %: the table's region scrolls ${sideways} px sideways`);
        }
      }
    }
    await admin.close();
    expect(problems, problems.join('\n')).toEqual([]);
  });
});

test.describe('"Small Business Entrepreneurship" at 320 px with text at 200 %', () => {
  test.use({ viewport: { width: 320, height: 568 }, hasTouch: true, isMobile: true });

  test('every page that names the course fits the screen, and its word is not split inside a heading', async ({ page }) => {
    test.setTimeout(180_000);
    let appId = 0;
    // The application form as a student who has not applied yet, then the pages of one who has.
    const reg = await page.request.post('/api/auth/register', { data: { firstName: 'Thandi', lastName: 'Mokoena', email: uniqueEmail('entrepreneur'), password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true } });
    expect(reg.status()).toBe(201);
    await setTextSize(page, 200);
    const problems: string[] = [];
    for (const path of ['/', '/courses', '/courses/2', '/apply/2', '/dashboard/student', '/my-applications', '/applications/']) {
      if (path === '/dashboard/student') appId = await studentApplies(page.request, 2, 'Thandi', 'Mokoena');
      await open(page, path === '/applications/' ? `${path}${appId}` : path, /Entrepreneurship/);
      const p = await widthProblem(page, path);
      if (p) problems.push(p);
      // Where the name is shown, its long word is on one line, or may be hyphenated at a syllable (hyphens:auto, lang
      // English; Debian's Chromium has no hyphenation dictionary, so the test sees the property, not the hyphen).
      const splits = await page.evaluate(() => {
        const out: string[] = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
          // The course's name where it stands alone (a title, 'Applying for:'), not a sentence that mentions it.
          if (n.data.trim() !== 'Small Business Entrepreneurship' || !n.parentElement || !n.parentElement.getClientRects().length) continue;
          const i = n.data.indexOf('Entrepreneurship');
          const el = n.parentElement;
          if (getComputedStyle(el).hyphens === 'auto' && el.closest('[lang]')?.getAttribute('lang')?.startsWith('en')) continue;
          const range = document.createRange();
          range.setStart(n, i);
          range.setEnd(n, i + 'Entrepreneurship'.length);
          const tops = Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => r.top);
          if (tops.length && Math.max(...tops) - Math.min(...tops) > 2) out.push(`${el.tagName.toLowerCase()} "${n.data.trim().slice(0, 40)}" split without a hyphen`);
        }
        return out;
      });
      for (const s of splits) problems.push(`${path}: ${s}`);
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });
});

test.describe('status badges on a 360×740 phone with text at 200 %', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  /**
   * Each visible status badge: as wide as its label on one line, or, when that is wider than its row, the whole row
   * (its label then wraps inside), and within the screen. Before shrink-0, 'Documents Required' beside its count on
   * the admin dashboard was squeezed to 248 px of the 288 px row, on two lines.
   */
  const squeezedBadges = (page: Page, where: string) => page.evaluate((where) => {
    const vw = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const b of Array.from(document.querySelectorAll<HTMLElement>('[data-status]'))) {
      if (!b.getClientRects().length) continue;
      const probe = b.cloneNode(true) as HTMLElement;
      probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap;max-width:none';
      document.body.append(probe);
      const oneLine = probe.getBoundingClientRect().width;
      probe.remove();
      const parent = b.parentElement!;
      const pcs = getComputedStyle(parent);
      const row = parent.clientWidth - parseFloat(pcs.paddingLeft) - parseFloat(pcs.paddingRight);
      const r = b.getBoundingClientRect();
      if (r.width < Math.min(oneLine, row) - 1) out.push(`${where}: ${b.dataset.status} ${Math.round(r.width)} px wide, its label ${Math.round(oneLine)} px in a ${Math.round(row)} px row`);
      if (r.right > vw + 0.5) out.push(`${where}: ${b.dataset.status} ends at ${Math.round(r.right)} px, past the ${vw} px screen`);
    }
    return out;
  }, where);

  test('a badge keeps its width beside a long course name and a count, and stays on the screen', async ({ page, browser, baseURL }) => {
    const title = 'Small Business Entrepreneurship and Cooperative Management';
    const admin = await browser.newContext({ baseURL });
    await adminLogin(admin.request);
    const res = await admin.request.post('/api/courses', { data: { title, description: 'Running a small business or a co-operative.', duration: 6, department: 'Business', tuitionFee: 'R5,000', startDate: 'July 2027', isActive: true } });
    expect(res.status()).toBe(201);
    // A surname of its own: the admin lists below are searched for this student and application, since other specs
    // running at the same time add students and applications that push them off a list's first page.
    const surname = uniqueSurname();
    const appId = await studentApplies(page.request, (await res.json()).course.id, 'Thandi', surname);
    for (const status of ['under_review', 'documents_required']) {
      expect((await admin.request.put(`/api/admin/applications/${appId}/status`, { data: { status, notes: status === 'documents_required' ? 'Please upload a clearer copy of your ID.' : '' } })).status()).toBe(200);
    }
    await setTextSize(page, 200);
    const problems: string[] = [];
    for (const path of ['/dashboard/student', '/my-applications', `/applications/${appId}`]) {
      await page.goto(path);
      await expect(page.locator('[data-status="documents_required"]').first()).toBeVisible();
      problems.push(...await squeezedBadges(page, path));
    }
    await page.goto('/dashboard/student');
    await page.getByRole('tab', { name: 'Applications', exact: true }).click();
    await expect(page.getByRole('tabpanel').locator('[data-status="documents_required"]')).toBeVisible();
    problems.push(...await squeezedBadges(page, '/dashboard/student, Applications tab'));

    const adminPage = await admin.newPage();
    await adminPage.setViewportSize(PHONE);
    await setTextSize(adminPage, 200);
    // /admin/applications: a card per row below 1024 px, the badge after its 'Status' label (it goes below the label
    // when they do not fit side by side).
    for (const path of ['/dashboard/admin', `/admin/students?q=${surname}`, `/admin/applications?q=APP-${appId}`]) {
      await adminPage.goto(path);
      await expect(adminPage.locator('[data-status="documents_required"]').first()).toBeVisible();
      problems.push(...await squeezedBadges(adminPage, path));
      const w = await pageWidth(adminPage);
      if (w.scrollWidth > w.innerWidth) problems.push(`${path}: ${w.scrollWidth} px wide in ${w.innerWidth}`);
    }
    await admin.close();
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
