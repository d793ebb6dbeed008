/**
 * Text at 200 % the two ways a reader's browser enlarges it (WCAG 1.4.4), for the layout specs: the browser's default
 * font size (CDP Page.setFontSizes, Chrome's "Font size"; media queries in rem follow it) and a page style
 * html{font-size:200%} (Firefox's "Zoom text only"; media queries in px or rem do not follow it).
 */
import type { Page } from '@playwright/test';

/** How the text is enlarged. */
export type LargeTextMode = 'browser font size' | 'html font-size';

/**
 * Enlarges the text of `page` to 200 % in `mode`. The browser font size applies at once, to every later load; for
 * 'html font-size' the caller runs `afterLoad` after each page load (the style tag goes with the page).
 */
export async function largeText(page: Page, mode: LargeTextMode): Promise<{ afterLoad: () => Promise<void> }> {
  if (mode === 'browser font size') {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: 32, fixed: 26 } });
    return { afterLoad: async () => {} };
  }
  return { afterLoad: async () => { await page.addStyleTag({ content: 'html{font-size:200% !important}' }); } };
}
