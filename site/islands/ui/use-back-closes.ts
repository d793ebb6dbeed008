/**
 * The browser's Back closes an open dialog or side panel instead of leaving the page (issue #14: on a phone the
 * system Back gesture is how people go back; issue #16: no lost work). While `open` is true, one history entry
 * on the same URL, marked `{ panel: <this dialog's id> }`, sits on top of the page's own. Back pops it and calls
 * `requestClose()`: it resolves true once the panel closed, or false to keep it open (the person chose to keep
 * their unsaved changes), and then the entry is put back so the next Back asks again. A panel closed any other
 * way (Escape, Cancel, ×, saved) takes its entry off again with `history.back()`, so no Back press is wasted.
 * Dialogs may nest (a confirmation inside a panel): each reacts only when its own entry is the one popped.
 *
 * @param open          whether the panel is on screen
 * @param requestClose  asks to close the panel; true when it closed
 */
import { useEffect, useRef } from 'react';

const MARK = 'panel';
let lastId = 0;
const markOf = () => (history.state as Record<string, unknown> | null)?.[MARK];

/** Ties an open panel to one history entry (see the module comment). */
export function useBackCloses(open: boolean, requestClose: () => boolean | Promise<boolean>): void {
  const pushed = useRef(false);
  const request = useRef(requestClose);
  request.current = requestClose;

  useEffect(() => {
    if (!open) return;
    const id = ++lastId;
    const push = () => {
      history.pushState({ ...((history.state as Record<string, unknown> | null) ?? {}), [MARK]: id }, '');
      pushed.current = true;
    };
    push();
    const onPopState = () => {
      if (!pushed.current || markOf() === id) return;
      pushed.current = false;
      const settle = (closed: boolean) => { if (!closed) push(); };
      const closed = request.current();
      if (typeof closed === 'boolean') settle(closed);
      else closed.then(settle, () => settle(false));
    };
    addEventListener('popstate', onPopState);
    return () => {
      removeEventListener('popstate', onPopState);
      if (pushed.current && markOf() === id) history.back();
      pushed.current = false;
    };
  }, [open]);
}
