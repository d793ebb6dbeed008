/**
 * Confirmation before what cannot be undone (issue #14 point 7; house rule "confirmation before destructive
 * actions"): a Radix AlertDialog. `useConfirm()` returns the dialog element to render and `ask(options)`, a
 * promise that resolves true when the admin confirms and false when they cancel (Escape, Cancel, outside, or the
 * browser's Back, which closes the question rather than leaving the page).
 */
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useCallback, useRef, useState, type ReactElement } from 'react';
import { useBackCloses } from '../ui/use-back-closes.ts';
import { useReturnFocus } from '../ui/return-focus.ts';
import { useSettleGuard } from '../ui/confirm-guard.ts';

/**
 * The confirmation dialogs' box (this one and AnnouncementsManager's "Delete announcement"): centred with inset-0 and
 * auto margins (see Panel), at most the window's height, scrolling inside. Its padding is 1.5rem but never more than
 * max(24 px, 6vw): 24 px at normal text as before, and on a phone with 200 % text still 24 px rather than 48 px a side
 * (phone audit at 360×740: the box was 708 px tall with 48 px padding); on a wide screen it grows with the text.
 */
export const CONFIRM_BOX = 'fixed inset-0 z-50 m-auto h-fit w-[95vw] max-w-md max-h-[calc(100dvh-1rem)] overflow-y-auto rounded-lg bg-white p-[min(1.5rem,max(24px,6vw))] shadow-xl dark:bg-slate-900';
/** The confirmation dialogs' button row: right-aligned, and wrapping (with large text a button goes to the next line instead of past the box's left edge). */
export const CONFIRM_BUTTONS = 'mt-6 flex flex-wrap justify-end gap-2';

export interface ConfirmOptions {
  title: string;
  /** What will happen, in plain words (e.g. 'The applicant will be e-mailed about this decision.'). */
  description: string;
  /** Label of the confirming button, e.g. 'Reject application'. */
  action: string;
  /** Red button for decisions against the person (reject, deactivate). */
  danger?: boolean;
  /** Label of the button that backs out; 'Cancel' unless given (e.g. 'Keep editing'). */
  cancel?: string;
  /**
   * false: the browser's Back does not answer the question. For a question that Back itself raised (a panel's
   * "Discard your changes?"), whose own history entry is already gone; otherwise Back means Cancel.
   */
  back?: boolean;
}

/**
 * The confirmation dialog and `ask`. When it closes, the focus goes back to the element that had it when it
 * opened (the Reject button, the form field where Escape was pressed: "Keep editing" returns into the form), or,
 * when that is gone or disabled now, to `fallback()` (WCAG 2.4.3). The action ignores presses for the first 500 ms
 * (ui/confirm-guard.ts): the second tap of a double tap on Approve does not answer the question it opened.
 */
export function useConfirm(fallback?: () => HTMLElement | null | undefined): [ReactElement, (o: ConfirmOptions) => Promise<boolean>] {
  const [options, setOptions] = useState<ConfirmOptions | null>(null);
  const resolver = useRef<((ok: boolean) => void) | null>(null);
  // A question asked while another is open replaces it: the earlier one is answered Cancel, never left waiting.
  const ask = useCallback((o: ConfirmOptions) => new Promise<boolean>((resolve) => { resolver.current?.(false); resolver.current = resolve; setOptions(o); }), []);
  const close = (ok: boolean) => { resolver.current?.(ok); resolver.current = null; setOptions(null); };
  useBackCloses(options != null && options.back !== false, () => { close(false); return true; });
  const returnFocus = useReturnFocus(fallback);
  const { guard } = useSettleGuard(options != null, options);
  const dialog = (
    <AlertDialog.Root open={options != null} onOpenChange={(o) => { if (!o) close(false); }}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <AlertDialog.Content {...returnFocus} className={CONFIRM_BOX}>
          <AlertDialog.Title className="text-lg font-bold">{options?.title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2">{options?.description}</AlertDialog.Description>
          <div className={CONFIRM_BUTTONS}>
            <AlertDialog.Cancel className="btn-secondary">{options?.cancel ?? 'Cancel'}</AlertDialog.Cancel>
            <AlertDialog.Action className={options?.danger ? 'btn-danger' : 'btn-primary'} {...guard(() => close(true))}>{options?.action}</AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
  return [dialog, ask];
}
