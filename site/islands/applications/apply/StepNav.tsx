/**
 * The wizard's step list (spec §2): done steps are buttons back to them, the current one is marked
 * aria-current="step", later ones are plain text. Below it, the draft's sync state (issue #5 "Drafts survive").
 * It also gives each step its page title (use-step-title.ts).
 * Where the wizard is narrower than 28rem (every phone held upright; tablets and desktops keep the list open), the
 * list folds behind one disclosure button, 'Step 1 of 5' (spoken 'Step 1 of 5: Personal Information'; the heading
 * right below shows the name). Open, the five steps pushed the form's first field 710 px down a 360×740 phone at
 * normal text (phone audit, 2026-11-28) and two and a half screens down at 200 % text (accessibility audit, WCAG
 * 1.4.10). The page must be a size container (@container, pages/apply/index.astro): its content box, the window less
 * the scrollbar and 2 × min(1rem, 5vw). 28rem follows the text size, so enlarged text folds it in wider windows too.
 */
import { DRAFT_OTHER_USER, WIZARD_STEPS } from '#contracts/application-steps.ts';
import type { SyncState } from '../draft-store.ts';
import { useEffect, useRef, useState } from 'react';
import { useStepTitle } from '../../ui/use-step-title.ts';

const SYNC_TEXT: Record<SyncState, string> = {
  idle: '', saving: 'Saving draft…', saved: 'Draft saved', 'local-only': 'Draft saved on this device; it will sync when you are back online.',
  // Online, the server did not answer or failed: draft-store.ts tries again by itself ("no lost work" QA audit).
  retrying: 'Draft saved on this device; we will keep trying to save it to your account.',
  // The link's course does not exist (404 'Course Not Found'): choosing one moves the draft to it.
  'no-course': 'Draft saved on this device; choose a course to save it to your account.',
  refused: 'Draft saved on this device; your account did not accept it. It is sent again with your next change.',
  // The choice itself is an alert above the form (apply/DraftConflict.tsx); this line is not spoken.
  conflict: 'Draft saved on this device only, until you choose which version to keep.',
  // A 401 (the login ended) is not being offline: it says what brings the draft to the account.
  'signed-out': 'Draft saved on this device; log in again to save it to your account.',
  // A 409 draft_other_user: nobody was logged out, another account is logged in on this browser; it says so.
  'other-account': DRAFT_OTHER_USER,
};

/** The states in which the draft is held on this device until the person logs in again (they offer 'Log in again'). */
const HELD_FOR_LOG_IN: SyncState[] = ['signed-out', 'other-account'];
/** The states in which the draft is on this device only (spoken once, then 'Draft saved' when a save gets through). */
const DEVICE_ONLY: SyncState[] = ['local-only', 'retrying', 'no-course', 'refused', ...HELD_FOR_LOG_IN];

/**
 * What the draft's status says to a screen reader (WCAG 4.1.3 without the noise, TalkBack): nothing until the
 * applicant has typed or chosen something (the wizard saves the draft by itself when it opens), never 'Saving
 * draft…' nor the ordinary 'Draft saved' after an edit (that would speak after every few keystrokes); but a save that
 * only reached this device (offline, or the server failed) is spoken — once, until a save gets through again — and
 * then 'Draft saved' when one does.
 */
function useSpokenSync(sync: SyncState): string {
  const [spoken, setSpoken] = useState('');
  const armed = useRef(false);
  const failed = useRef(false);
  useEffect(() => {
    const arm = () => { armed.current = true; };
    document.addEventListener('input', arm, true);
    document.addEventListener('change', arm, true);
    return () => { document.removeEventListener('input', arm, true); document.removeEventListener('change', arm, true); };
  }, []);
  useEffect(() => {
    if (!armed.current || sync === 'idle' || sync === 'saving') return;
    if (DEVICE_ONLY.includes(sync)) { failed.current = true; setSpoken(SYNC_TEXT[sync]); }
    else if (failed.current) { failed.current = false; setSpoken(SYNC_TEXT.saved); }
  }, [sync]);
  return spoken;
}

/**
 * `onLogInAgain`: the status line's "Log in again" while the draft is kept on this device after a 401 ('signed-out')
 * or a 409 draft_other_user ('other-account').
 */
export function StepNav({ step, sync, onGoTo, onLogInAgain }: { step: number; sync: SyncState; onGoTo: (step: number) => void; onLogInAgain?: () => void }) {
  // Each step has its own page title (WCAG 2.4.2), e.g. 'Academic History – Step 2 of 5 – Apply | <site name>'.
  useStepTitle(WIZARD_STEPS[step] ?? '', step + 1, WIZARD_STEPS.length);
  const spoken = useSpokenSync(sync);
  // Folded list only (below 28rem): open after the button, closed again once a step is chosen or reached. One
  // wizard per page, so the list's id is fixed (useId would add to every island page's shared JavaScript).
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(false), [step]);
  return (
    <nav aria-label="Application steps">
      {/* The step's name is the heading right below, so it is only spoken here (the visible words start the name, WCAG 2.5.3). */}
      <button type="button" aria-expanded={open} aria-controls="wizard-steps-list" onClick={() => setOpen(!open)}
        aria-label={`Step ${step + 1} of ${WIZARD_STEPS.length}: ${WIZARD_STEPS[step]}`}
        className="hidden w-full items-center justify-between gap-2 rounded-md bg-brand-50 px-3 py-2 text-left text-sm dark:bg-slate-800 @max-md:flex">
        <span className="font-semibold">Step {step + 1} of {WIZARD_STEPS.length}</span>
        <span aria-hidden="true" className={`shrink-0 transition-transform ${open ? 'rotate-180' : ''}`}>▾</span>
      </button>
      <ol id="wizard-steps-list" className={`space-y-1 ${open ? '@max-md:mt-1' : '@max-md:hidden'}`}>
        {WIZARD_STEPS.map((label, i) => {
          const state = i < step ? 'done' : i === step ? 'current' : 'todo';
          const inner = (
            <>
              <span aria-hidden="true" className={`flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-sm font-bold ${state === 'current' ? 'bg-brand-700 text-white' : state === 'done' ? 'bg-brand-100 text-brand-800' : 'bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-200'}`}>{state === 'done' ? '✓' : i + 1}</span>
              <span>{label}<span className="sr-only">{state === 'done' ? ' (completed)' : state === 'todo' ? ' (not started)' : ''}</span></span>
            </>
          );
          return (
            <li key={label} aria-current={state === 'current' ? 'step' : undefined}>
              {state === 'done'
                ? <button type="button" onClick={() => onGoTo(i)} className="flex w-full items-center gap-3 rounded-md px-3 py-2 text-left text-sm hover:bg-slate-100 dark:hover:bg-slate-800">{inner}</button>
                : <span className={`flex items-center gap-3 rounded-md px-3 py-2 text-sm ${state === 'current' ? 'bg-brand-50 font-semibold dark:bg-slate-800' : 'muted'}`}>{inner}</span>}
            </li>
          );
        })}
      </ol>
      {/* Shown, not spoken: a screen reader is not told of every save (the spoken line is the one below). */}
      <p className="mt-4 px-3 text-xs muted @max-md:mt-1" data-testid="draft-status">{SYNC_TEXT[sync]}
        {HELD_FOR_LOG_IN.includes(sync) && onLogInAgain && <> <button type="button" className="-my-1 inline-block py-1 underline max-sm:min-h-11" onClick={onLogInAgain}>Log in again</button></>}</p>
      <p role="status" className="sr-only" data-testid="draft-announcement">{spoken}</p>
    </nav>
  );
}

/**
 * 'We restored the application you started' with Start over (asks before discarding the draft). The buttons swap
 * under the focus: asking focuses Cancel (the safe answer, in a group named by the question), Cancel focuses Start
 * over again (WCAG 2.4.3).
 */
export function RestoredNotice({ confirming, onAsk, onCancel, onDiscard }: { confirming: boolean; onAsk: () => void; onCancel: () => void; onDiscard: () => void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  const startOver = useRef<HTMLButtonElement>(null);
  const was = useRef(confirming);
  useEffect(() => {
    if (was.current !== confirming) (confirming ? cancel : startOver).current?.focus();
    was.current = confirming;
  }, [confirming]);
  return (
    <div className="mb-4 flex flex-wrap items-center gap-2 rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-950 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-50" role="status">
      <span>We restored the application you started. Continue where you left off.</span>
      {confirming ? (
        <span className="flex flex-wrap items-center gap-2" role="group" aria-labelledby="restored-discard-q"><span id="restored-discard-q">Discard the saved draft?</span>
          <button type="button" className="btn-danger px-2 py-1" onClick={onDiscard}>Yes, start over</button>
          <button ref={cancel} type="button" className="btn-secondary px-2 py-1" onClick={onCancel}>Cancel</button></span>
      ) : <button ref={startOver} type="button" className="-my-1 inline-block py-1 underline" onClick={onAsk}>Start over</button>}
    </div>
  );
}
