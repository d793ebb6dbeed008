/**
 * The detail panel's sticky decision bar never covers the element that has the focus (accessibility audit F2,
 * WCAG 2.4.11 Focus Not Obscured): the panel's scroller keeps the bar's height clear as scroll padding, and with
 * large text (the bar taller than a quarter of the window) the bar is no longer sticky.
 */
import { test, expect, type Page } from '@playwright/test';
import { appliedThenAdmin, openApplicationPanel } from './admin-seed.ts';

/** What is drawn at the centre of the focused element, and whether that is the element (or inside it). */
const focusedIsOnTop = (page: Page) => page.evaluate(() => {
  const e = document.activeElement as HTMLElement;
  const r = e.getBoundingClientRect();
  const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  const name = (e.getAttribute('aria-label') || e.innerText || e.id || e.tagName).trim().slice(0, 60);
  return { name, onTop: !!top && e.contains(top), coveredBy: top?.closest('[data-testid]')?.getAttribute('data-testid') ?? top?.tagName ?? null };
});

for (const large of [false, true]) {
  test(`detail panel at 1366×768${large ? ' with 200% text' : ''} › Tab through the panel: each focused element is drawn on top, not under the decision bar`, async ({ page, playwright, baseURL }) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    const id = await appliedThenAdmin(page, () => playwright.request.newContext({ baseURL }), 'Vusi');
    await page.goto('/admin/applications');
    if (large) await page.addStyleTag({ content: 'html { font-size: 200% !important; }' });
    const panel = await openApplicationPanel(page, id);
    await expect(panel.getByRole('button', { name: 'Verify Qualifications Documents' })).toBeVisible();
    const steps: { name: string; onTop: boolean; coveredBy: string | null }[] = [];
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      steps.push(await focusedIsOnTop(page));
    }
    expect(steps.filter((s) => !s.onTop), JSON.stringify(steps)).toEqual([]);
  });
}
