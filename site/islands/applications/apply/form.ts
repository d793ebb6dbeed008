/**
 * The application wizard's form model (spec §2 Application form, §5 Steps 1–4): the react-hook-form values, their
 * defaults, the restore of a saved draft, the per-step zod resolver and the submit payload. A draft stores exactly
 * these values (minus card number and CVC, draft-store.ts), so the shape must stay readable by older drafts.
 */
import type { FieldErrors, Resolver } from 'react-hook-form';
import type { ZodMiniType } from 'zod/mini';
import { APPLICATION_FEE, DOCUMENT_SLOTS, WIZARD_STEPS } from '#contracts/application-steps.ts';
import type { PublicUser } from '#contracts/auth.ts';
import type { SlotFile } from '../DocumentSlot.tsx';
import type { NscRow } from '../../ui/NscResultsFields.tsx';

/** One school or college of the academic history; years are 'YYYY' strings (spec §9 bounds). */
export type Institution = { name: string; city: string; country: string; from: string; to: string; qualification: string; grade: string };
export type SlotKey = typeof DOCUMENT_SLOTS[number]['key'];
/** The wizard's values. `courseId` is the select's string; documents hold the uploaded file (id, name, size in bytes). */
export interface ApplyForm {
  courseId: string; firstName: string; lastName: string; email: string; phone: string; dateOfBirth: string; nationality: string;
  addressLine1: string; addressLine2: string; city: string; state: string; postalCode: string; country: string;
  academicHistory: { highSchool: Institution; college: Institution; nscResults: NscRow[] };
  documents: Record<SlotKey, SlotFile | null>;
  /** `agreedFee`: the fee ('NN.NN') shown when the applicant ticked paymentTerms, '' when unticked (apply/fee.ts). */
  payment: { paymentMethod: 'card' | 'paypal'; cardNumber: string; cardExpiry: string; cardCvc: string; cardName: string; paymentTerms: boolean; agreedFee: string };
  certification: boolean;
}
/** A course the applicant may choose (GET /api/courses). */
export interface CourseOption {
  id: number; title: string; name?: string; level?: string; startDate?: string | null;
  /** structured entry requirements (issue #18) */
  minimumAps?: number; subjectRequirements?: { subject: string; minimumPercent: number }[];
}

export const PERSONAL_KEYS = ['firstName', 'lastName', 'email', 'phone', 'dateOfBirth', 'nationality', 'addressLine1', 'addressLine2', 'city', 'state', 'postalCode', 'country'] as const;
export const LAST_STEP = WIZARD_STEPS.length - 1;

const emptyInstitution = (): Institution => ({ name: '', city: '', country: '', from: '', to: '', qualification: '', grade: '' });

/** Blank values for a new application, with the course of the URL (or ''). */
export function emptyForm(courseId: string): ApplyForm {
  return {
    courseId, firstName: '', lastName: '', email: '', phone: '', dateOfBirth: '', nationality: '', addressLine1: '', addressLine2: '',
    city: '', state: '', postalCode: '', country: '',
    academicHistory: { highSchool: emptyInstitution(), college: emptyInstitution(), nscResults: [] },
    documents: { idDocument: null, transcripts: null, englishProficiency: null, recommendationLetter: null },
    payment: { paymentMethod: 'card', cardNumber: '', cardExpiry: '', cardCvc: '', cardName: '', paymentTerms: false, agreedFee: '' },
    certification: false,
  };
}

/** Step 1 defaults from the logged-in user (spec §5). */
export function fromUser(f: ApplyForm, u: PublicUser): ApplyForm {
  const pick = (v: string | null | undefined) => v ?? '';
  return {
    ...f, firstName: u.firstName, lastName: u.lastName, email: u.email, phone: pick(u.phone), dateOfBirth: pick(u.dateOfBirth),
    nationality: pick(u.nationality), addressLine1: pick(u.addressLine1), addressLine2: pick(u.addressLine2), city: pick(u.city),
    state: pick(u.state), postalCode: pick(u.postalCode), country: pick(u.country),
  };
}

/** Deep merge of a saved draft over the defaults; unknown keys and values of another type are dropped. */
export function mergeDraft<T>(base: T, saved: unknown): T {
  if (!saved || typeof saved !== 'object' || Array.isArray(saved) || base === null || typeof base !== 'object') {
    if (base === null) return (saved ?? null) as T;
    return (typeof saved === typeof base ? saved : base) as T;
  }
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const k of Object.keys(out)) if (k in (saved as object)) out[k] = mergeDraft(out[k], (saved as Record<string, unknown>)[k]);
  return out as T;
}

/** True when any field of the institution is filled (the optional college is sent only then). */
export const hasAny = (i: Institution) => Object.values(i).some((v) => v.trim() !== '');
const docIds = (f: ApplyForm) => Object.fromEntries(DOCUMENT_SLOTS.map((s) => [s.key, f.documents[s.key]?.id ?? ''])) as Record<SlotKey, string>;

/** The wizard step (0..4) a field path belongs to, e.g. 'payment.paymentTerms' → 3. */
export const stepOfField = (path: string) => path.startsWith('academicHistory') ? 1 : path.startsWith('documents') ? 2 : path.startsWith('payment') ? 3 : path === 'certification' ? 4 : 0;
/** The DOM id of a field path: 'academicHistory.highSchool.name' → 'f-academicHistory-highSchool-name' (the e2e specs use these). */
export const domId = (path: string) => `f-${path.replace(/\./g, '-')}`;

/** The first error's dotted path in a react-hook-form errors tree, or null. */
export function firstErrorPath(errors: FieldErrors, prefix = ''): string | null {
  for (const [k, v] of Object.entries(errors)) {
    if (!v || typeof v !== 'object') continue;
    if (typeof (v as { message?: unknown }).message === 'string') return prefix + k;
    const inner = firstErrorPath(v as FieldErrors, `${prefix}${k}.`);
    if (inner) return inner;
  }
  return null;
}

type Schemas = { steps: typeof import('./step-schemas.ts')['STEP_SCHEMAS']; zodResolver: typeof import('@hookform/resolvers/zod')['zodResolver'] };
let schemas: Promise<Schemas> | null = null;
/**
 * The step schemas with zod and the zod resolver load after first paint, not with the page (issue #5, #17 JS
 * budget). A failed load (offline, chunk not cached) is not kept, so the next check tries again.
 */
export const loadSchemas = (): Promise<Schemas> => (schemas ??= Promise.all([import('./step-schemas.ts'), import('@hookform/resolvers/zod')])
  .then(([s, r]) => ({ steps: s.STEP_SCHEMAS, zodResolver: r.zodResolver }))
  .catch((e: unknown) => { schemas = null; throw e; }));

/** Runs `run` when the browser is idle (within 2 s), or after a short timer where requestIdleCallback is missing (Safari before 18). */
function whenIdle(run: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 200);
}

/**
 * Loads the step schemas (loadSchemas) once the browser is idle after the form shows, in two tasks — zod with the
 * NSC results schema, then the step schemas and the resolver — rather than in the task that shows the form, so the
 * wizard still checks steps offline once they are in but neither task blocks the page for long (issue #17: the
 * one evaluation took 66–96 ms at Lighthouse's 4× CPU slowdown). Failures are ignored: the first check loads them.
 */
export function preloadSchemas(): void {
  whenIdle(() => { import('#contracts/nsc-schema.ts').then(() => whenIdle(() => { loadSchemas().catch(() => {}); }), () => {}); });
}

/**
 * Step `step`'s zod schema and the values as that schema reads them. Paths of the input match the form's paths
 * (payment fields are nested under `payment`), so the resolver's errors land on the right fields.
 */
function stepCheck(S: Schemas, step: number, f: ApplyForm): { schema: ZodMiniType<unknown, Record<string, unknown>>; input: Record<string, unknown>; prefix?: string } {
  const schema = S.steps[step] as ZodMiniType<unknown, Record<string, unknown>>;
  if (step === 0) {
    const input: Record<string, unknown> = { courseId: f.courseId === '' ? undefined : f.courseId };
    for (const k of PERSONAL_KEYS) input[k] = f[k] === '' && (k === 'nationality' || k === 'country') ? undefined : f[k];
    return { schema, input };
  }
  if (step === 1) return { schema, input: { academicHistory: f.academicHistory } };
  if (step === 2) return { schema, input: { documents: docIds(f) } };
  if (step === 3) return { schema, input: { ...f.payment }, prefix: 'payment' };
  return { schema, input: { certification: f.certification || undefined } };
}

/**
 * A react-hook-form resolver that checks the step `currentStep()` returns with its schema from
 * api/contracts/applications.ts (spec §5 messages). On the last step it checks every step in order and returns the
 * errors of the first one that fails, so a submit sends the applicant back to that step.
 */
export function stepResolver(currentStep: () => number): Resolver<ApplyForm> {
  return async (values, context, options) => {
    const S = await loadSchemas();
    const step = currentStep();
    for (const s of step === LAST_STEP ? WIZARD_STEPS.map((_, i) => i) : [step]) {
      const { schema, input, prefix } = stepCheck(S, s, values);
      const r = await S.zodResolver(schema)(input, context, options as never);
      if (Object.keys(r.errors).length) return { values: {}, errors: (prefix ? { [prefix]: r.errors } : r.errors) as FieldErrors<ApplyForm> };
    }
    return { values, errors: {} };
  };
}

/**
 * The POST /api/applications body (spec §7) from the wizard's values. Only the last four card digits leave the
 * browser and the CVC never does (DESIGN §4 Payment); status, amounts and userId are sent as the spec's payload
 * has them, but the server decides those itself. `expectedFee` ('75.50') is the fee the applicant was shown and
 * agreed to: the server refuses the submit with 409 `fee_changed` when it is no longer the fee charged.
 */
export function submitBody(f: ApplyForm, userId: number | undefined, expectedFee: string | undefined): Record<string, unknown> {
  const digits = f.payment.cardNumber.replace(/\D/g, '');
  return {
    courseId: Number(f.courseId), ...Object.fromEntries(PERSONAL_KEYS.map((k) => [k, f[k]])),
    academicHistory: {
      highSchool: f.academicHistory.highSchool, ...(hasAny(f.academicHistory.college) ? { college: f.academicHistory.college } : {}),
      ...(f.academicHistory.nscResults?.length ? { nscResults: f.academicHistory.nscResults } : {}),
    },
    documents: Object.fromEntries(Object.entries(docIds(f)).filter(([, v]) => v)),
    payment: { paymentMethod: f.payment.paymentMethod, cardNumber: f.payment.paymentMethod === 'card' ? digits.slice(-4) : '', cardExpiry: f.payment.cardExpiry, cardName: f.payment.cardName, paymentTerms: f.payment.paymentTerms },
    certification: true,
    userId, status: 'pending', paymentStatus: 'completed', paymentAmount: expectedFee ?? APPLICATION_FEE,
    ...(expectedFee ? { expectedFee } : {}),
  };
}
