/**
 * The browser's Back and Forward move between a wizard's steps, not off the page (issue #14: on a phone the
 * system Back gesture is how people go back). Every step change the wizard makes adds a history entry on the same
 * URL whose state holds `{ [key]: step, [key + 'At']: position }`; the entry the page opened on is marked with the
 * first step shown (a restored draft's step). On Back or Forward to such an entry, `onPop(step)` is called: it
 * moves the wizard and returns (or resolves to) true, or false to stay (a later step while the step on screen
 * fails its checks), and the browser is then sent back to the entry it came from, so the entries after it stay
 * for another try and no Back press is wasted. Entries of other kinds (a `#main` skip link) are ignored.
 *
 * Own code on the History API rather than a URL-state library: it is 40 lines, and a library would add to the
 * /apply page's JavaScript budget (issue #17).
 *
 * @param key    the history-state field of this wizard, e.g. 'applyStep'
 * @param step   the step on screen (0-based)
 * @param ready  false until the wizard shows its first step (history is left alone before)
 * @param onPop  called with the step of the entry the browser moved to; true when the wizard moved there
 */
import { useEffect, useRef } from 'react';

type State = Record<string, unknown> | null;

/** Keeps the wizard's `step` in the browser history (see the module comment for the parameters). */
export function useStepHistory(key: string, step: number, ready: boolean, onPop: (step: number) => boolean | Promise<boolean>): void {
  const at = `${key}At`;
  const shown = useRef<{ step: number; at: number } | null>(null);
  const popped = useRef(false);
  const pop = useRef(onPop);
  pop.current = onPop;
  const mark = (s: number, n: number) => ({ ...((history.state as State) ?? {}), [key]: s, [at]: n });

  useEffect(() => {
    if (!ready) return;
    if (!shown.current) {
      const n = Number((history.state as State)?.[at] ?? 0);
      history.replaceState(mark(step, n), '');
      shown.current = { step, at: n };
    } else if (!popped.current && step !== shown.current.step) {
      history.pushState(mark(step, shown.current.at + 1), '');
      shown.current = { step, at: shown.current.at + 1 };
    }
    popped.current = false;
  }, [step, ready]);

  useEffect(() => {
    const onPopState = (e: PopStateEvent) => {
      const to = (e.state as State)?.[key];
      const toAt = Number((e.state as State)?.[at]);
      const from = shown.current;
      if (typeof to !== 'number' || !from || !Number.isFinite(toAt)) return;
      if (to === from.step) { shown.current = { step: to, at: toAt }; return; }
      popped.current = true;
      const settle = (moved: boolean) => {
        if (moved) { shown.current = { step: to, at: toAt }; return; }
        popped.current = false;
        history.go(from.at - toAt);
      };
      const moved = pop.current(to);
      if (typeof moved === 'boolean') settle(moved);
      else moved.then(settle, () => settle(false));
    };
    addEventListener('popstate', onPopState);
    return () => removeEventListener('popstate', onPopState);
  }, []);
}
