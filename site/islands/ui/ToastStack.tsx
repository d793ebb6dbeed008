/**
 * The toasts themselves, with Radix Toast (spec §9: max 5, 5000 ms, swipe right, threshold 50 px, hotkey F8).
 * A toast marked `persist` stays until it is closed. Loaded by the Toaster island only once a toast is shown (issue #17: Radix Toast is about 10 KB of a page's
 * JavaScript, and most page views show no toast).
 */
import type { ReactElement } from 'react';
import * as ToastPrimitive from '@radix-ui/react-toast';
import { dismissToast, TOAST_CLASSES, type Toast } from '../../stores/toasts.ts';

/**
 * Renders `toasts` in a Radix Toast viewport (a labelled region, F8 moves focus there). `announceIn`: where Radix's
 * announcement copy goes (the open modal dialog the Toaster renders into; default <body>, hidden while a modal is open).
 */
export default function ToastStack({ toasts, announceIn }: { toasts: Toast[]; announceIn?: HTMLElement | null }): ReactElement {
  return (
    <ToastPrimitive.Provider swipeDirection="right" swipeThreshold={50} duration={5000} announcerContainer={announceIn ?? undefined}>
      {toasts.map((t) => (
        // The toast stays a list item (a role on the <li> broke the viewport's list: axe 'list'); its text is a status
        // so it is found as one (audit F1), aria-live off: Radix's announcer reads it once.
        <ToastPrimitive.Root key={t.id} duration={t.persist ? Infinity : undefined} onOpenChange={(open) => { if (!open) dismissToast(t.id); }}
          data-testid="toast" className={`mb-2 rounded-lg border p-4 pr-12 shadow-lg ${TOAST_CLASSES[t.variant ?? 'default']}`}>
          <div role="status" aria-live="off" aria-atomic="true">
            <ToastPrimitive.Title className="font-semibold">{t.title}</ToastPrimitive.Title>
            {t.description && <ToastPrimitive.Description className="mt-1 text-sm">{t.description}</ToastPrimitive.Description>}
          </div>
          {/* A 44×44 tap area (WCAG 2.5.8; the × alone was 23×18); the text keeps clear of it (pr-12). */}
          <ToastPrimitive.Close aria-label="Close" className="absolute right-0.5 top-0.5 flex h-11 w-11 items-center justify-center rounded text-lg leading-none opacity-70 hover:opacity-100">×</ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      {/* Inside an open dialog (the Toaster moves the region there) toasts sit top left, outside a side panel on a
          laptop: bottom right, the success toast covered the application panel's decision bar, Next included, for 5 s. */}
      <ToastPrimitive.Viewport hotkey={['F8']} className="fixed bottom-0 right-0 z-[100] flex w-full max-w-sm flex-col p-4 outline-none [&>li]:relative [[role=dialog]_&]:top-0 [[role=dialog]_&]:bottom-auto [[role=dialog]_&]:left-0 [[role=dialog]_&]:right-auto" />
    </ToastPrimitive.Provider>
  );
}
