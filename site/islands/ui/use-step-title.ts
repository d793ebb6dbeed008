/**
 * A page title for each step of a wizard (WCAG 2.4.2 Page Titled): the steps are one page to the browser, so
 * without this every step is announced, listed in history and shown in the tab as the same "Apply | <site>".
 * The title becomes `<step name> – Step <n> of <total> – <the page's own title>`, the page's own title being
 * document.title as the wizard first found it (BaseLayout's "<page> | <site name>"); it comes back when the
 * wizard goes away.
 */
import { useEffect, useRef } from 'react';

/**
 * The title of step `n` (1-based) of `total`, named `stepName`, on a page titled `pageTitle`.
 * E.g. stepTitle('Academic History', 2, 5, 'Apply | College') → 'Academic History – Step 2 of 5 – Apply | College'.
 */
export function stepTitle(stepName: string, n: number, total: number, pageTitle: string): string {
  return `${stepName} – Step ${n} of ${total} – ${pageTitle}`;
}

/** Sets document.title to stepTitle(stepName, n, total, <initial document.title>) while mounted; restores it after. */
export function useStepTitle(stepName: string, n: number, total: number): void {
  const pageTitle = useRef<string | null>(null);
  useEffect(() => {
    if (pageTitle.current === null) pageTitle.current = document.title;
    document.title = stepTitle(stepName, n, total, pageTitle.current);
  }, [stepName, n, total]);
  useEffect(() => () => { if (pageTitle.current !== null) document.title = pageTitle.current; }, []);
}
