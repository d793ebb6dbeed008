/**
 * /apply/1 with the phone's text at 200 % (WCAG 1.4.4, 1.4.10; audit of cheap phones, November 2026): the row of
 * Previous and Next did not wrap, so the page was 443 px wide on a 360 px phone and Next sat off the screen. And
 * (accessibility audit, November 2026) /apply/2 was 406 px wide: the one word "Entrepreneurship" in "Applying for:"
 * would not wrap and pushed the fields off the screen. Step 1 of every open course is checked.
 */
import { test, expect } from '@playwright/test';
import { uniqueEmail } from './fixtures.ts';

test('/apply/1 at 200 % text on a 360 px phone: the page does not scroll sideways and Next is on the screen', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 640 });
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Thandi', lastName: 'Mokoena', email: uniqueEmail('large-text'), password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true },
  });
  expect(res.status()).toBe(201);
  await page.goto('/apply/1');
  await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
  await page.addStyleTag({ content: 'html{font-size:200% !important}' });
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  expect(scrollWidth, `page ${scrollWidth} px wide in ${clientWidth}`).toBeLessThanOrEqual(clientWidth);
  const next = await page.getByRole('button', { name: 'Next' }).boundingBox();
  expect(next!.x + next!.width).toBeLessThanOrEqual(clientWidth);
});

test('step 1 of every open course at 200 % text on a 360 px phone: the course name wraps and the page does not scroll sideways', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 360, height: 640 });
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Thandi', lastName: 'Mokoena', email: uniqueEmail('large-text-courses'), password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true },
  });
  expect(res.status()).toBe(201);
  const body = await (await page.request.get('/api/courses')).json();
  const courses = (Array.isArray(body) ? body : body.courses ?? body.items ?? []) as { id: number; name?: string; title?: string; isOpen?: boolean }[];
  expect(courses.map((c) => c.id)).toContain(2);
  const wide: string[] = [];
  let checked = 0;
  for (const c of courses) {
    await page.goto(`/apply/${c.id}`);
    await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
    // A closed course shows the course select instead of the "Applying for:" box.
    if (!(await page.getByTestId('selected-course').isVisible())) continue;
    checked++;
    await page.addStyleTag({ content: 'html{font-size:200% !important}' });
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
    if (scrollWidth > clientWidth) wide.push(`/apply/${c.id} (${c.name || c.title}): ${scrollWidth} px in ${clientWidth}`);
  }
  expect(checked, 'courses whose step 1 names them').toBeGreaterThan(0);
  expect(wide).toEqual([]);
});
