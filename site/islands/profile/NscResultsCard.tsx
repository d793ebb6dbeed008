/**
 * My Profile › NSC results (issue #18 point 1): the person's own subjects and percentages, kept for their
 * applications (GET/PUT /api/profile/nsc-results, validated with NscResultsUpdateSchema). Toasts on save; unsaved
 * results ask before the page is left (issue #16).
 */
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { NscResultsUpdateSchema } from '#contracts/nsc-schema.ts';
import { api, ApiError } from '../../lib/api-client.ts';
import { toast } from '../../stores/toasts.ts';
import { saveApi } from '../ui/save-api.ts';
import { useLeaveWarning } from '../ui/use-leave-warning.ts';
import { NscResultsFields, type NscRow } from '../ui/NscResultsFields.tsx';
import { BusyButton, unlessBusy } from '../ui/BusyButton.tsx';
import { resetKeepingEdits, sentValues } from '../ui/keep-edits.ts';

interface Values { nscResults: NscRow[] }

export function NscResultsCard() {
  const [loaded, setLoaded] = useState<NscRow[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    api<{ nscResults: NscRow[] }>('/api/profile/nsc-results').then((r) => setLoaded(r.nscResults)).catch(() => setFailed(true));
  }, []);
  return (
    <section aria-labelledby="nsc-title" className="card p-6">
      <h2 id="nsc-title" className="text-xl font-semibold">NSC results</h2>
      {failed ? <p role="alert" className="mt-2 field-error">Could not load your NSC results. Please reload the page.</p>
        : !loaded ? <div className="skeleton mt-3 h-24" aria-label="Loading your NSC results" />
        : <NscForm initial={loaded} />}
    </section>
  );
}

function NscForm({ initial }: { initial: NscRow[] }) {
  const form = useForm<Values>({
    defaultValues: { nscResults: initial.map((r) => ({ subject: r.subject, percent: String(r.percent), name: r.name ?? '' })) },
    resolver: zodResolver(NscResultsUpdateSchema) as never, shouldFocusError: true,
  });
  const { control, register, handleSubmit, setError, getValues, formState: { errors, isSubmitting, isDirty } } = form;
  useLeaveWarning(isDirty);
  const onSubmit = handleSubmit(async (values) => {
    const sent = sentValues(getValues());
    try {
      const r = await saveApi<{ nscResults: NscRow[] }>('/api/profile/nsc-results', { method: 'PUT', json: values });
      // A subject added or changed while saving stays, unsaved (ui/keep-edits.ts).
      resetKeepingEdits(form, { nscResults: r.nscResults.map((x) => ({ subject: x.subject, percent: String(x.percent), name: x.name ?? '' })) }, sent);
      toast({ title: 'NSC results saved', variant: 'success' });
    } catch (e) {
      if (e instanceof ApiError) for (const [k, m] of Object.entries(e.fields)) setError(k as never, { message: m }, { shouldFocus: true });
      toast({ title: 'Could not save your NSC results', description: e instanceof ApiError ? e.userMessage : 'An error occurred', variant: 'destructive' });
    }
  });
  return (
    <form noValidate onSubmit={unlessBusy(isSubmitting, onSubmit)} className="mt-3 space-y-3">
      <NscResultsFields control={control as never} register={register as never} errors={errors} name="nscResults" idPrefix="profile-nsc" legend="Your subjects" />
      <BusyButton type="submit" className="btn-primary" busy={isSubmitting}>{isSubmitting ? 'Saving…' : 'Save NSC results'}</BusyButton>
    </form>
  );
}
