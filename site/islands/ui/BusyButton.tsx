/**
 * A button that keeps the focus while its action runs (accessibility audit, November 2026; WCAG 2.4.3 Focus Order,
 * 2.4.7 Focus Visible). A `disabled` button loses the focus: it falls to <body>, so when the page stays (a toast,
 * an error, a reloaded list) the next Tab starts at the top of the document and a screen reader says nothing where
 * the person was. While busy the button is instead `aria-disabled="true"` and `aria-busy="true"`, looks disabled
 * (the .btn classes style `[aria-disabled=true]` like `:disabled`, site/styles/global.css), and a click on it is
 * cancelled (preventDefault: for a type=submit button this also cancels the form's submission, including the
 * implicit one Enter in a field makes, which the browser sends as a click on this button). As in
 * admin/ApplicationReview.tsx and profile/SmsCard.tsx. Keep plain `disabled` for a control that is unavailable for
 * a reason the person did not just cause by pressing it (no phone number, not allowed).
 */
import { forwardRef, type ButtonHTMLAttributes } from 'react';

type ClickEvent = { preventDefault(): void };

/**
 * Props that make a button busy without taking its focus: `busy` (the action is running: aria-disabled and
 * aria-busy) or `unavailable` (it cannot be used now, e.g. nothing to save, after the person pressed it:
 * aria-disabled only); either way `onClick` is not called and the click's default (a form submission) is cancelled.
 * Spread onto a <button> or a library's button (Radix Dialog.Close skips closing when the click was cancelled).
 */
export function busyProps<E extends ClickEvent>(busy: boolean, onClick?: (e: E) => void, unavailable = false) {
  const off = busy || unavailable;
  return {
    'aria-disabled': off ? ('true' as const) : undefined,
    'aria-busy': busy ? ('true' as const) : undefined,
    onClick: (e: E) => { if (off) { e.preventDefault(); return; } onClick?.(e); },
  };
}

/**
 * A form's onSubmit that does nothing while `busy` (a second Enter in a field, or a submission by script, while
 * the first is on its way); otherwise calls `submit`. The event's default is cancelled either way when busy.
 */
export function unlessBusy<E, R>(busy: boolean, submit: (e: E) => R) {
  return (e: E): R | undefined => {
    if (!busy) return submit(e);
    (e as Partial<ClickEvent> | undefined)?.preventDefault?.();
    return undefined;
  };
}

export type BusyButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick'> & {
  /** The action this button started is running: focusable, aria-disabled and aria-busy, clicks ignored. */
  busy?: boolean;
  /** Cannot be used now but keeps the focus if it has it (aria-disabled, clicks ignored). */
  unavailable?: boolean;
  onClick?: (e: { preventDefault(): void; currentTarget: HTMLButtonElement }) => void;
};

/** A <button> (type="button" unless given) with busyProps applied; `disabled` still means really disabled. */
export const BusyButton = forwardRef<HTMLButtonElement, BusyButtonProps>(function BusyButton({ busy = false, unavailable = false, onClick, type = 'button', ...rest }, ref) {
  return <button ref={ref} type={type} {...rest} {...busyProps(busy, onClick, unavailable)} />;
});
