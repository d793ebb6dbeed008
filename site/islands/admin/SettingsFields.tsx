/** The settings form itself (validated with the API's SettingsSchema), loaded on demand by SettingsForm. */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { SettingsSchema, type SettingsInput } from '#contracts/settings.ts';
import { ApiError } from '../../lib/api-client.ts';
import { saveApi } from '../ui/save-api.ts';
import { toast } from '../../stores/toasts.ts';
import { Field, fieldProps } from '../ui/Field.tsx';
import { useLeaveWarning } from '../ui/use-leave-warning.ts';
import { BusyButton, unlessBusy } from '../ui/BusyButton.tsx';
import { resetKeepingEdits, sentValues } from '../ui/keep-edits.ts';

export default function Form({ initial }: { initial: SettingsInput }) {
  const form = useForm<SettingsInput>({ resolver: zodResolver(SettingsSchema) as any, defaultValues: initial, shouldFocusError: true });
  const { register, handleSubmit, setError, getValues, formState: { errors, isSubmitting, isDirty } } = form;
  useLeaveWarning(isDirty);
  const onSubmit = handleSubmit(async (v) => {
    const sent = sentValues(getValues());
    try {
      const r = await saveApi<{ settings: SettingsInput }>('/api/admin/settings', { method: 'PUT', json: v });
      // A field edited while saving keeps its new value and stays unsaved (ui/keep-edits.ts).
      resetKeepingEdits(form, r.settings, sent);
      toast({ title: 'Settings saved', variant: 'success' });
    } catch (e) {
      if (e instanceof ApiError) for (const [k, m] of Object.entries(e.fields)) setError(k as keyof SettingsInput, { message: m }, { shouldFocus: true });
      toast({ title: 'Failed to save settings', description: e instanceof ApiError ? e.userMessage : 'An error occurred', variant: 'destructive' });
    }
  });
  const err = (k: keyof SettingsInput) => errors[k]?.message as string | undefined;
  return (
    <form noValidate onSubmit={unlessBusy(isSubmitting, onSubmit)} className="card grid max-w-xl gap-4 p-6" aria-label="College settings">
      <Field id="s-fee" label="Application fee" error={err('applicationFee')} hint="Charged with every application, e.g. 50.00"><input inputMode="decimal" className="input" {...fieldProps('s-fee', err('applicationFee'))} {...register('applicationFee')} /></Field>
      <Field id="s-email" label="Office e-mail" error={err('officeEmail')}><input type="email" className="input" {...fieldProps('s-email', err('officeEmail'))} {...register('officeEmail')} /></Field>
      <Field id="s-accr" label="Accreditation number" error={err('accreditationNumber')}><input className="input" {...fieldProps('s-accr', err('accreditationNumber'))} {...register('accreditationNumber')} /></Field>
      <Field id="s-portal" label="Portal access URL" error={err('portalAccessUrl')}><input type="url" className="input" {...fieldProps('s-portal', err('portalAccessUrl'))} {...register('portalAccessUrl')} /></Field>
      <div><BusyButton type="submit" className="btn-primary" busy={isSubmitting}>{isSubmitting ? 'Saving…' : 'Save settings'}</BusyButton></div>
    </form>
  );
}
