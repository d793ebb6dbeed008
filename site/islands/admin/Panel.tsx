/** The admin islands' dialog: a Radix modal, or a right-hand side panel with `side`. */
import type { ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';

/** Radix dialog styled as a modal; `side` makes it a right-hand panel. */
export default function Panel({ open, onOpenChange, title, description, side = false, children }: {
  open: boolean; onOpenChange: (o: boolean) => void; title: string; description?: string; side?: boolean; children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <Dialog.Content
          className={side
            ? 'fixed inset-y-0 right-0 z-50 w-full max-w-2xl overflow-y-auto bg-white p-6 shadow-xl dark:bg-slate-900'
            : 'fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[95vw] max-w-2xl -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white p-6 shadow-xl dark:bg-slate-900'}>
          <div className="mb-4 flex items-start justify-between gap-4">
            <div>
              <Dialog.Title className="text-xl font-bold">{title}</Dialog.Title>
              {description ? <Dialog.Description className="text-sm muted">{description}</Dialog.Description> : <Dialog.Description className="sr-only">{title}</Dialog.Description>}
            </div>
            <Dialog.Close className="btn-secondary px-2" aria-label="Close">×</Dialog.Close>
          </div>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

