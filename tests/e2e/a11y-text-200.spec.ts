/**
 * A 360×740 phone with its text at 200 % (WCAG 1.4.4 resize text, 1.4.10 reflow; accessibility audit, November
 * 2026): headings broke inside words ('Applicat/ion'), and on /apply the step list pushed the form's first field two
 * and a half screens down. The text is enlarged the way a reader's browser setting does it, through the browser's
 * default font size (CDP Page.setFontSizes, as Chrome's and Firefox's "Font size" settings): rem and em both follow
 * it, in the page's CSS and in its media queries.
 */
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { WIZARD_STEPS } from '../../api/contracts/application-steps.ts';
import { fillPersonalDetails, uniqueEmail } from './fixtures.ts';
import { adminLogin, studentApplies } from './admin-seed.ts';

const PHONE = { width: 360, height: 740 };
const PERSONAL = { dateOfBirth: '2001-04-12', nationality: 'za', addressLine1: '12 Church Street', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za' };

/** Sets the browser's default text size to `percent` % of 16 px for this page (and its later navigations). */
async function setTextSize(page: Page, percent: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Page.setFontSizes', { fontSizes: { standard: Math.round((16 * percent) / 100), fixed: Math.round((13 * percent) / 100) } });
}

/** Registers a student through the API in the page's own cookie jar. */
async function signUp(page: Page, tag: string): Promise<void> {
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Thandi', lastName: 'Mokoena', email: uniqueEmail(tag), password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true },
  });
  expect(res.status()).toBe(201);
}

interface SplitWord { heading: string; word: string; fontSize: string; wordPx: number; atBodySizePx: number; boxPx: number }

/**
 * The words of visible h1/h2 headings whose letters are on two lines (each word's Range.getClientRects: tops more
 * than 2 px apart; words are split at spaces, dashes and slashes, where a line may end). For each: its width at the
 * heading's size and at body size (1rem) and the heading's content width, all in px.
 */
function splitHeadingWords(page: Page): Promise<SplitWord[]> {
  return page.evaluate(() => {
    const out: SplitWord[] = [];
    for (const h of Array.from(document.querySelectorAll<HTMLElement>('h1, h2'))) {
      if (!h.getClientRects().length) continue;
      const cs = getComputedStyle(h);
      const walker = document.createTreeWalker(h, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
        const re = /[^\s\-\u2013\u2014/]+/g;
        for (let m = re.exec(n.data); m; m = re.exec(n.data)) {
          const range = document.createRange();
          range.setStart(n, m.index);
          range.setEnd(n, m.index + m[0].length);
          const tops = Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => r.top);
          if (!tops.length || Math.max(...tops) - Math.min(...tops) <= 2) continue;
          const probe = document.createElement('span');
          probe.style.cssText = `position:absolute;white-space:nowrap;font-family:${cs.fontFamily};font-weight:${cs.fontWeight};letter-spacing:${cs.letterSpacing};font-size:${cs.fontSize}`;
          probe.textContent = m[0];
          document.body.append(probe);
          const wordPx = probe.getBoundingClientRect().width;
          probe.style.fontSize = '1rem';
          const atBodySizePx = probe.getBoundingClientRect().width;
          probe.remove();
          const boxPx = h.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
          out.push({ heading: (h.textContent ?? '').trim(), word: m[0], fontSize: cs.fontSize, wordPx: Math.round(wordPx), atBodySizePx: Math.round(atBodySizePx), boxPx: Math.round(boxPx) });
        }
      }
    }
    return out;
  });
}

const pageWidth = (page: Page) => page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth }));
/** The top of `selector` in px from the top of the page. */
const topOnPage = (page: Page, selector: string) => page.locator(selector).first().evaluate((el) => Math.round(el.getBoundingClientRect().top + window.scrollY));

test.describe('a 360×740 phone with text at 200 %', () => {
  test.use({ viewport: PHONE });

  test('/apply/1: the step list folds to "Step 1 of 5", the first field is on the first screen and a bit, no heading word is split', async ({ page }) => {
    await signUp(page, 'text200-apply');
    await setTextSize(page, 200);
    await page.goto('/apply/1');
    await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe('32px');

    const steps = page.getByRole('navigation', { name: 'Application steps' });
    const toggle = steps.getByRole('button', { name: 'Step 1 of 5: Personal Information' });
    await expect(toggle).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(steps.getByRole('listitem')).toHaveCount(0);
    // Audit: 1834 px (2.48 screens of 740) before the list folded and the headings stopped doubling.
    const firstField = await topOnPage(page, '[data-wizard] form input:not([type="hidden"]), [data-wizard] form select');
    expect(firstField, `first field at ${firstField} px`).toBeLessThanOrEqual(1.2 * PHONE.height);
    expect(await splitHeadingWords(page)).toEqual([]);
    const w = await pageWidth(page);
    expect(w.scrollWidth, `page ${w.scrollWidth} px wide in ${w.innerWidth}`).toBeLessThanOrEqual(w.innerWidth);

    // The keyboard opens the list: the spec's five step names, the current one marked, later ones not buttons.
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(steps.getByRole('listitem')).toHaveText(WIZARD_STEPS.map((name, i) => `${i + 1}${name}${i === 0 ? '' : ' (not started)'}`));
    await expect(steps.locator('[aria-current="step"]')).toHaveText(/Personal Information$/);
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');

    // Step 2: the button names it, the list folds again and a done step is a button back to it.
    await fillPersonalDetails(page, PERSONAL);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByRole('heading', { name: 'Academic History' })).toBeFocused();
    const toggle2 = steps.getByRole('button', { name: 'Step 2 of 5: Academic History' });
    await expect(toggle2).toHaveAttribute('aria-expanded', 'false');
    await toggle2.focus();
    await page.keyboard.press('Enter');
    await expect(steps.locator('[aria-current="step"]')).toHaveText(/Academic History$/);
    await page.keyboard.press('Tab');
    await expect(steps.getByRole('button', { name: 'Personal Information (completed)' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeFocused();
    await expect(steps.getByRole('button', { name: 'Step 1 of 5: Personal Information' })).toHaveAttribute('aria-expanded', 'false');
    expect(await splitHeadingWords(page)).toEqual([]);

    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });

  test('public and applicant pages: headings break between words, and the pages do not scroll sideways', async ({ page }) => {
    test.setTimeout(180_000);
    await setTextSize(page, 200);
    const problems: string[] = [];
    /** A word that fits its heading's box at body text size must not be split; one that does not is broken as a last resort. */
    const check = async (path: string) => {
      await page.goto(path);
      await expect(page.locator('h1').first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      for (const s of await splitHeadingWords(page)) {
        if (s.atBodySizePx <= s.boxPx) problems.push(`${path}: "${s.word}" of "${s.heading}" split at ${s.fontSize} (${s.wordPx} px in a ${s.boxPx} px box)`);
        else test.info().annotations.push({ type: 'long word', description: `${path}: "${s.word}" is ${s.atBodySizePx} px even at body size, in a ${s.boxPx} px box` });
      }
      const w = await pageWidth(page);
      if (w.scrollWidth > w.innerWidth) problems.push(`${path}: ${w.scrollWidth} px wide in ${w.innerWidth}`);
    };
    for (const path of ['/', '/courses', '/courses/1', '/courses/2', '/about', '/contact', '/assessment-centre', '/login', '/register', '/forgot-password', '/terms', '/privacy', '/no-such-page']) await check(path);
    await signUp(page, 'text200-pages');
    for (const path of ['/apply', '/my-applications', '/dashboard/student', '/profile']) await check(path);
    expect(problems).toEqual([]);
  });
});

test.describe('normal text size: the step list folds on phones, stays open on wider screens', () => {
  /*
   * Phone audit 2026-11-28 (360×740, normal text): with the five steps listed the first field started 710 px down a
   * 740 px screen, so an applicant saw no form at all on the first screen. The list folds wherever the wizard is
   * narrower than 28rem (every phone held upright); tablets and desktops keep it open.
   */
  for (const viewport of [{ width: 320, height: 640 }, PHONE, { width: 430, height: 932 }]) {
    test(`at ${viewport.width}×${viewport.height} the list folds to "Step 1 of 5" and the first field is on the first screen`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await signUp(page, 'text100-fold');
      await page.goto('/apply/1');
      await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
      const steps = page.getByRole('navigation', { name: 'Application steps' });
      const toggle = steps.getByRole('button', { name: 'Step 1 of 5: Personal Information' });
      await expect(toggle).toBeVisible();
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(steps.getByRole('listitem')).toHaveCount(0);
      const firstField = await page.locator('[data-wizard] form input:not([type="hidden"]), [data-wizard] form select').first().boundingBox();
      expect(firstField, 'the first field is laid out').not.toBeNull();
      expect(firstField!.y + firstField!.height, `first field ends at ${firstField!.y + firstField!.height} px`).toBeLessThanOrEqual(viewport.height);
      await toggle.click();
      await expect(steps.getByRole('listitem')).toHaveCount(WIZARD_STEPS.length);
      await expect(steps.locator('[aria-current="step"]')).toHaveText(/Personal Information$/);
    });
  }
  for (const viewport of [{ width: 768, height: 1024 }, { width: 1280, height: 800 }]) {
    test(`at ${viewport.width}×${viewport.height} the five steps are listed, with no fold button, and the card says "Step 1 of 5"`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await signUp(page, 'text100-apply');
      await page.goto('/apply/1');
      await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
      const steps = page.getByRole('navigation', { name: 'Application steps' });
      await expect(steps.getByRole('listitem')).toHaveCount(WIZARD_STEPS.length);
      for (const item of await steps.getByRole('listitem').all()) await expect(item).toBeVisible();
      await expect(steps.getByRole('button', { name: /^Step 1 of 5/ })).toBeHidden();
      await expect(page.locator('#wizard-step-position')).toBeVisible();
      await expect(page.locator('#wizard-step-position')).toHaveText('Step 1 of 5');
      // Tailwind's sizes are kept at normal text: text-3xl is 30 px, text-2xl 24 px.
      expect(await page.getByRole('heading', { level: 1 }).evaluate((h) => getComputedStyle(h).fontSize)).toBe('30px');
      expect(await page.getByRole('heading', { name: 'Personal Information' }).evaluate((h) => getComputedStyle(h).fontSize)).toBe('24px');
    });
  }
});

test.describe('an NSC subject row on a 360×740 phone', () => {
  test.use({ viewport: PHONE });

  // Phone audit 2026-11-28: subject, percentage and Remove shared one row, and the subject box got about 50 px, so
  // 'English Home Language' showed as 'E'.
  test('the chosen subject has a line of its own, and Remove stays inside the list', async ({ page }) => {
    await signUp(page, 'nsc-row-phone');
    await page.goto('/apply/1');
    await fillPersonalDetails(page, PERSONAL);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByRole('heading', { name: 'Academic History' })).toBeFocused();
    await page.getByRole('button', { name: 'Add subject' }).click();
    const subject = page.getByLabel('Subject 1', { exact: true });
    await subject.selectOption('English Home Language');
    const list = page.locator('[data-nsc-results] ul');
    const [box, listBox, remove] = await Promise.all([subject.boundingBox(), list.boundingBox(), page.getByRole('button', { name: 'Remove subject 1' }).boundingBox()]);
    expect(box!.width, `subject box ${box!.width} px of a ${listBox!.width} px list`).toBeGreaterThanOrEqual(listBox!.width - 1);
    expect(await subject.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect(remove!.x + remove!.width, 'Remove ends inside the list').toBeLessThanOrEqual(listBox!.x + listBox!.width + 0.5);
  });
});

test.describe('a course title of one very long word, on a 360×740 phone', () => {
  test.use({ viewport: PHONE });

  /*
   * Review of the 200 % change: a heading beside a badge in a flex row is as wide as its longest word (min-content;
   * break-word does not lower it), so a course named with one long word widened the whole page.
   */
  test('My Applications, the dashboard and the application page do not scroll sideways, at normal and 200 % text', async ({ page, request }) => {
    const title = 'Supercalifragilisticexpialidociousmanagement';
    await adminLogin(request);
    const res = await request.post('/api/courses', { data: { title, description: 'Managing very long words.', duration: 6, department: 'Technology', tuitionFee: 'R5,000', startDate: 'July 2027', isActive: true } });
    expect(res.status()).toBe(201);
    const courseId = (await res.json()).course.id as number;
    const appId = await studentApplies(page.request, courseId, 'Thandi', 'Mokoena');
    const problems: string[] = [];
    for (const percent of [100, 200]) {
      await setTextSize(page, percent);
      const measure = async (where: string) => {
        await expect(page.getByText(title).first()).toBeVisible();
        const w = await pageWidth(page);
        if (w.scrollWidth > w.innerWidth) problems.push(`${where} at ${percent} %: ${w.scrollWidth} px wide in ${w.innerWidth}`);
      };
      for (const path of ['/my-applications', '/dashboard/student', `/applications/${appId}`]) {
        await page.goto(path);
        await measure(path);
        if (path !== '/dashboard/student') continue;
        // The dashboard's Applications tab lists the course beside its status badge.
        await page.getByRole('tab', { name: 'Applications' }).click();
        await measure(`${path}, Applications tab`);
      }
    }
    expect(problems).toEqual([]);
  });
});

test.describe('the small-screen flex-wrap rule gives way to utilities', () => {
  test.use({ viewport: PHONE });

  /*
   * global.css wraps a flex row holding a heading below 20em. Unlayered, it beat every Tailwind utility (all in
   * @layer utilities), so a row marked to stay on one line could not. A utility-layer rule stands in for any
   * flex-nowrap utility (the build ships only the utilities the site uses).
   */
  test('at 200 % text a heading row wraps, unless a utility says nowrap', async ({ page }) => {
    await setTextSize(page, 200);
    await page.goto('/about');
    await expect(page.locator('h1').first()).toBeVisible();
    const wraps = await page.evaluate(() => {
      const style = document.createElement('style');
      style.textContent = '@layer utilities { .e2e-nowrap { flex-wrap: nowrap; } }';
      document.head.append(style);
      const row = (extra: string) => {
        const div = document.createElement('div');
        div.className = `flex ${extra}`;
        div.innerHTML = '<h2>Heading</h2><button type="button">Action</button>';
        document.querySelector('main')!.append(div);
        const value = getComputedStyle(div).flexWrap;
        div.remove();
        return value;
      };
      return { plain: row(''), nowrapUtility: row('e2e-nowrap') };
    });
    expect(wraps).toEqual({ plain: 'wrap', nowrapUtility: 'nowrap' });
  });
});
