/**
 * Step 5 'Review & Submit' (spec §2): every earlier step summarised with an Edit button back to it, and the
 * certification the applicant must tick (spec §5 'You must certify that the information is true'). The fee shown is
 * `fee` (apply/fee.ts), the amount the submit sends as `expectedFee`.
 */
import { useWatch } from 'react-hook-form';
import { COUNTRY_OPTIONS, DOCUMENT_SLOTS, feeLabel } from '#contracts/application-steps.ts';
import { CheckField } from './fields.tsx';
import { hasAny, type ApplyForm, type CourseOption } from './form.ts';
import { courseLabel } from './PersonalStep.tsx';
import { EligibilityNotice } from './EligibilityNotice.tsx';
import type { ShownFee } from './fee.ts';

const countryLabel = (v: string) => COUNTRY_OPTIONS.find((o) => o.value === v)?.label ?? v;

export function ReviewStep({ courses, onEdit, fee }: { courses: CourseOption[] | null; onEdit: (step: number) => void; fee?: ShownFee }) {
  const f = useWatch<ApplyForm>() as ApplyForm;
  const hs = f.academicHistory.highSchool;
  const last4 = f.payment.cardNumber.replace(/\D/g, '');
  return (
    <div className="space-y-5">
      <Review title="Personal Information" onEdit={() => onEdit(0)} rows={[
        ['Course', courseLabel(courses, f.courseId)], ['Name', `${f.firstName} ${f.lastName}`], ['Email', f.email], ['Phone', f.phone],
        ['Date of birth', f.dateOfBirth], ['Nationality', countryLabel(f.nationality)],
        ['Address', [f.addressLine1, f.addressLine2, f.city, f.state, f.postalCode, countryLabel(f.country)].filter(Boolean).join(', ')],
      ]} />
      <Review title="Academic History" onEdit={() => onEdit(1)} rows={[
        ['High school', `${hs.name}, ${hs.city} (${hs.from}–${hs.to})`],
        ['Qualification', `${hs.qualification}, ${hs.grade}`],
        ['NSC results', (f.academicHistory.nscResults ?? []).map((r) => `${r.subject === 'Other' ? r.name : r.subject} ${r.percent} %`).join(', ') || 'Not given'],
        ...(hasAny(f.academicHistory.college) ? [['College', `${f.academicHistory.college.name} ${f.academicHistory.college.qualification}`.trim()] as [string, string]] : []),
      ]} />
      <Review title="Supporting Documents" onEdit={() => onEdit(2)} rows={DOCUMENT_SLOTS.map((s) => [s.label, f.documents[s.key]?.name ?? 'Not provided'] as [string, string])} />
      <Review title="Payment" onEdit={() => onEdit(3)} rows={[
        ['Application fee', fee?.fee ? feeLabel(fee.fee) : 'Loading…'],
        ['Method', f.payment.paymentMethod === 'card' ? `Card${last4.length >= 4 ? ` ending in ${last4.slice(-4)}` : ''}` : 'PayPal'],
        ['Payment status', 'Ready to process'],
      ]} />
      <EligibilityNotice course={courses?.find((c) => String(c.id) === f.courseId) ?? null} results={f.academicHistory.nscResults ?? []} />
      <CheckField path="certification">
        I certify that the information I have provided in this application is true and complete to the best of my knowledge.
      </CheckField>
    </div>
  );
}

function Review({ title, rows, onEdit }: { title: string; rows: [string, string][]; onEdit: () => void }) {
  return (
    <section className="rounded-md border border-slate-200 p-4 dark:border-slate-700">
      <div className="flex items-center justify-between">
        <h3 className="font-semibold">{title}</h3>
        <button type="button" className="-my-1 -mr-2 inline-flex min-h-6 min-w-6 items-center px-2 py-1 text-sm underline" onClick={onEdit} aria-label={`Edit ${title}`}>Edit</button>
      </div>
      <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_1fr]">
        {rows.map(([k, v]) => <div key={k} className="contents"><dt className="muted">{k}</dt><dd className="wrap-anywhere">{v || '—'}</dd></div>)}
      </dl>
    </section>
  );
}
