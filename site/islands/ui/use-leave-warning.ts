/**
 * Asks before the page is left while `unsaved` is true (no lost work, issue #16): the browser's own "Leave site?"
 * prompt on closing the tab, reloading, or following a link away. For forms with no draft of their own (the
 * Student Registration wizard, the profile's details, the admin's forms: course, announcement, status notes,
 * walk-in application, settings, external payment and enrolment); the application wizard saves a draft instead.
 * Call `allowLeaving()` just before navigating away on purpose (a registration sent, an account deleted): it
 * takes effect at once, where a state change would come one render too late for the navigation.
 */
import { useLayoutEffect } from 'react';

let leavingOnPurpose = false;

/** The page is about to be left on purpose: no prompt from here on. */
export function allowLeaving(): void { leavingOnPurpose = true; }

/** While `unsaved` is true, leaving the page asks first (unless allowLeaving() was called). */
export function useLeaveWarning(unsaved: boolean): void {
  // As the change is rendered, not after the next paint: leaving right after typing must already ask.
  useLayoutEffect(() => {
    if (!unsaved) return;
    const ask = (e: BeforeUnloadEvent) => {
      if (leavingOnPurpose) return;
      e.preventDefault();
      e.returnValue = '';
    };
    addEventListener('beforeunload', ask);
    return () => removeEventListener('beforeunload', ask);
  }, [unsaved]);
}
