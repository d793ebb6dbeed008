/**
 * The wizard's steps 2–5 (Academic History, Supporting Documents, Payment, Review & Submit) as code loaded on
 * demand (issue #17: /apply loads only the step on screen; uploads, NSC fields and the review load with their
 * step). Step 1 (Personal Information) is part of the wizard itself, so the page works offline once seen
 * (the service worker caches the wizard's static imports). A step's code, once fetched, is cached by the service
 * worker like any /_astro file, so a step seen online (or prefetched as the next one) opens offline too.
 * A failed load (offline, not cached) is not kept, so the next call tries again.
 */
import type { ComponentType } from 'react';
import type { SlotKey } from './form.ts';

type StepProps = { courses?: unknown; onEdit?: (step: number) => void; fee?: unknown; feeNotice?: string | null; onUploading?: (slot: SlotKey, uploading: boolean) => void };
type Loader = () => Promise<ComponentType<StepProps>>;

const LOADERS: Record<number, Loader> = {
  1: () => import('./AcademicStep.tsx').then((m) => m.AcademicStep as ComponentType<StepProps>),
  2: () => import('./DocumentsStep.tsx').then((m) => m.DocumentsStep as ComponentType<StepProps>),
  3: () => import('./PaymentStep.tsx').then((m) => m.PaymentStep as ComponentType<StepProps>),
  4: () => import('./ReviewStep.tsx').then((m) => m.ReviewStep as unknown as ComponentType<StepProps>),
};

const loaded = new Map<number, ComponentType<StepProps>>();
const pending = new Map<number, Promise<void>>();

/** The component of step `step` (0-based) once loaded, else undefined (step 0 is not handled here). */
export const stepComponent = (step: number): ComponentType<StepProps> | undefined => loaded.get(step);

/** Loads step `step`'s code; resolves at once for a loaded step or one without a loader; rejects when the fetch fails. */
export function loadStep(step: number): Promise<void> {
  const load = LOADERS[step];
  if (!load || loaded.has(step)) return Promise.resolve();
  let p = pending.get(step);
  if (!p) {
    p = load().then((c) => { loaded.set(step, c); }).finally(() => pending.delete(step));
    pending.set(step, p);
  }
  return p;
}

/** Loads step `step`'s code when the browser is idle, ignoring failures (the step tries again when opened). */
export function prefetchStep(step: number): void {
  if (!LOADERS[step] || loaded.has(step)) return;
  const run = () => { loadStep(step).catch(() => {}); };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 3000 });
  else setTimeout(run, 200);
}
