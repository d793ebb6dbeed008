/**
 * Browsers without cascade layers (Chrome < 99, Safari < 15.4, Samsung Internet < 18: cheap phones that are not
 * updated) skip every `@layer` block of the site's CSS, which is all of Tailwind: the audit of November 2026 found
 * /courses/1 1208 px wide on a 360 px phone (pictures at their natural width). global.css has a small fallback for
 * them that browsers with layers never apply.
 */
import { test, expect, type Page } from '@playwright/test';

/**
 * The site's CSS as such a browser reads it: `@layer` and `@property` rules dropped, and `revert-layer`, which
 * shipped with layers in every engine, an unknown keyword.
 */
function withoutLayers(css: string): string {
  let out = '';
  let i = 0;
  for (let at = css.slice(i).search(/@(layer|property)\b/); at >= 0; at = css.slice(i).search(/@(layer|property)\b/)) {
    out += css.slice(i, i + at);
    i += at;
    const semi = css.indexOf(';', i);
    const open = css.indexOf('{', i);
    if (open < 0 || (semi >= 0 && semi < open)) { i = semi + 1; continue; }
    let depth = 0;
    let j = open;
    for (; j < css.length; j++) {
      if (css[j] === '{') depth++;
      else if (css[j] === '}' && --depth === 0) break;
    }
    i = j + 1;
  }
  return (out + css.slice(i)).replaceAll('revert-layer', 'unknown-keyword');
}

async function asOldBrowser(page: Page): Promise<void> {
  await page.route('**/_astro/*.css', async (r) => {
    const response = await r.fetch();
    const headers = { ...response.headers() };
    delete headers['content-encoding'];
    delete headers['content-length'];
    await r.fulfill({ response, headers, body: withoutLayers(await response.text()) });
  });
}

test('without cascade layers, no public page is wider than a 360 px phone and the text keeps a margin', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 640 });
  await asOldBrowser(page);
  for (const path of ['/', '/courses', '/courses/1', '/about']) {
    await page.goto(path);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${path} page width`).toBeLessThanOrEqual(360);
    const h1 = await page.locator('h1').first().boundingBox();
    expect(h1!.x, `${path} heading's left margin`).toBeGreaterThanOrEqual(8);
  }
});

test('with cascade layers, the fallback changes nothing: /, /courses and /courses/1 look the same with and without it, at 360 and 1280 px', async ({ page }) => {
  test.setTimeout(120_000);
  expect(await page.evaluate(() => CSS.supports('color', 'revert-layer'))).toBe(true);
  let strip = false;
  await page.route('**/_astro/*.css', async (r) => {
    const response = await r.fetch();
    const headers = { ...response.headers() };
    delete headers['content-encoding'];
    delete headers['content-length'];
    const css = await response.text();
    const at = css.indexOf('@supports not (color:revert-layer)');
    if (strip) expect(at, 'the fallback block in the built CSS').toBeGreaterThanOrEqual(0);
    const end = at < 0 ? at : css.indexOf('}}', at) + 2;
    await r.fulfill({ response, headers, body: strip && at >= 0 ? css.slice(0, at) + css.slice(end) : css });
  });
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    for (const path of ['/', '/courses', '/courses/1']) {
      const shots: Buffer[] = [];
      for (const s of [false, true]) {
        strip = s;
        await page.goto(path);
        await page.evaluate(() => document.fonts.ready);
        shots.push(await page.screenshot({ fullPage: true, animations: 'disabled', caret: 'hide' }));
      }
      expect(shots[1]!.equals(shots[0]!), `${path} at ${width} px: identical with and without the fallback`).toBe(true);
    }
  }
});
