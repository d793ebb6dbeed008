/**
 * Admin working day, second audit (items 1–3, screens): the Reports tab's by-course tables read without sideways
 * scrolling at 1366×768 and 360×800 and every course bar carries its name; a student on an admin page sees no admin
 * navigation; the Students list links an APP reference to that application in the applications list.
 */
import { test, expect, type Page } from '@playwright/test';
import type { Reports } from '#contracts/reports.ts';
import { adminLogin, studentApplies, uniqueSurname } from './admin-seed.ts';
import { uniqueEmail } from './fixtures.ts';

/** Twelve courses with long names (the seeded catalogue's lengths and longer), one department each. */
function reports(): Reports {
  const titles = ['Higher Certificate in Information Technology', 'Diploma in Business Management', 'National Certificate: Early Childhood Development',
    'Occupational Certificate: Health Promotion Officer', 'Bachelor of Arts in Graphic Design', 'Advanced Diploma in Accounting',
    'Short Course: Project Management Fundamentals', 'Certificate in Human Resource Management', 'Diploma in Nursing Auxiliary Care',
    'Higher Certificate in Office Administration', 'Diploma in Interior Design and Decorating', 'Certificate in Computer Networking (CompTIA N+)'];
  return {
    byStatus: [['pending', 'Pending'], ['under_review', 'Under Review'], ['documents_required', 'Documents Required'], ['payment_pending', 'Payment Pending'], ['accepted', 'Accepted'], ['rejected', 'Rejected']]
      .map(([status, label], i) => ({ status: status!, label: label!, count: 12 + i })),
    byCourse: titles.map((title, i) => ({ courseId: i + 1, title, department: ['Technology', 'Business', 'Healthcare', 'Arts and Design'][i % 4]!, count: 1000 + i, eligible: 500, notEligible: 400, unknown: 100 + i })),
    byDepartment: [{ department: 'Technology', count: 12 }],
    perWeek: [], acceptanceOverTime: [], feesPerWeek: [], feesCollected: '0.00',
  };
}

async function openReports(page: Page) {
  await adminLogin(page.request);
  await page.route('**/api/admin/reports', (route) => route.fulfill({ json: reports() }));
  await page.goto('/admin#reports');
  await expect(page.locator('.recharts-surface')).toHaveCount(7); // every chart drawn, empty ones too
}

for (const [w, h] of [[1366, 768], [360, 800]] as const) {
  test(`reports › by-course tables fit their box at ${w}×${h}, headers whole, and every course bar is labelled`, async ({ page }) => {
    await page.setViewportSize({ width: w, height: h });
    await openReports(page);
    for (const name of ['Applications by course', 'Eligibility by course']) {
      const box = page.getByRole('region', { name: `${name} (table)` });
      const fit = await box.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, scrollH: el.scrollHeight, clientH: el.clientHeight}));
      expect(fit.scroll, `${name}: table ${fit.scroll} px wide in a ${fit.client} px box`).toBeLessThanOrEqual(fit.client);
      expect(fit.scrollH, `${name}: table ${fit.scrollH} px high in a ${fit.clientH} px box`).toBeLessThanOrEqual(fit.clientH);
      // Each header's text fits its cell (no "Applicatio").
      for (const th of await box.locator('th').all()) {
        const cut = await th.evaluate((el) => el.scrollWidth > el.clientWidth);
        expect(cut, `${name}: header "${await th.textContent()}" cut`).toBe(false);
      }
      // One name per bar: the chart's category labels are the twelve courses, each shown.
      const labels = page.getByRole('region', { name, exact: true }).locator('.recharts-cartesian-axis-tick-value');
      const texts = await labels.allTextContents();
      const titles = reports().byCourse.map((c) => c.title);
      const named = titles.filter((t) => texts.some((x) => x.length >= 8 && t.startsWith(x.replace(/…$/, ''))));
      expect(named, `${name}: bar labels ${JSON.stringify(texts)}`).toEqual(titles);
    }
    // The status chart names every status beside its bar, on a phone too (it named every other one).
    const statusLabels = await page.getByRole('region', { name: 'Applications by status', exact: true }).locator('.recharts-cartesian-axis-tick-value').allTextContents();
    for (const s of reports().byStatus) expect(statusLabels, `status bar labels ${JSON.stringify(statusLabels)}`).toContain(s.label);
  });
}

test('guards › a student on /admin/announcements sees the Unauthorized Access message and no admin navigation', async ({ page }) => {
  const email = uniqueEmail('navstudent');
  const reg = await page.request.post('/api/auth/register', { data: { firstName: 'Nav', lastName: 'Student', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true } });
  expect(reg.status()).toBe(201);
  await page.goto('/admin/announcements');
  await expect(page.getByRole('alert').filter({ hasText: 'Unauthorized Access' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Admin' })).toBeHidden();
  await expect(page.getByRole('link', { name: 'Applications', exact: true })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Admin menu' })).toBeHidden();
});

test('guards › an admin still sees the admin navigation', async ({ page }) => {
  await adminLogin(page.request);
  await page.goto('/admin/announcements');
  await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Applications', exact: true })).toBeVisible();
});

test('students › an APP reference opens that application in the applications list', async ({ page, playwright, baseURL }) => {
  const surname = uniqueSurname();
  const student = await playwright.request.newContext({ baseURL });
  const id = await studentApplies(student, 1, 'Linked', surname);
  await student.dispose();
  await adminLogin(page.request);
  await page.goto(`/admin/students?q=${surname}`);
  const ref = `APP-${id}`;
  const link = page.getByTestId('student').getByRole('link', { name: ref });
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/admin/applications\\?q=${ref}$`));
  await expect(page.getByRole('button', { name: `View ${ref}` })).toBeVisible();
});
