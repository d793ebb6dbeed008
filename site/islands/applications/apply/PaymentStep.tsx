/**
 * Step 4 'Payment' (spec §2, §9): the simulated application fee ('$50.00' unless an admin changed it: the fee shown is
 * the one charged, apply/fee.ts), card or PayPal, and the payment terms. `feeNotice` is the server's message when
 * the fee changed after the applicant agreed ('The application fee changed to $75.50. Please review and confirm the
 * new fee.'): shown above the fee, the agreement is then unticked to be given again.
 * Only the card's last four digits are ever sent and the CVC never is (form.ts submitBody, DESIGN §4 Payment).
 */
import { useFormContext, useWatch } from 'react-hook-form';
import { feeLabel } from '#contracts/application-steps.ts';
import { CheckField, TextField } from './fields.tsx';
import type { ApplyForm } from './form.ts';
import { unconfirmedFeeNote, type ShownFee } from './fee.ts';

export function PaymentStep({ fee, feeNotice }: { fee?: ShownFee; feeNotice?: string | null }) {
  const { register } = useFormContext<ApplyForm>();
  const method = useWatch<ApplyForm, 'payment.paymentMethod'>({ name: 'payment.paymentMethod' });
  const amount = fee?.fee ? feeLabel(fee.fee) : null;
  const note = fee ? unconfirmedFeeNote(fee) : null;
  return (
    <div className="space-y-5">
      {feeNotice && <p role="alert" tabIndex={-1} data-testid="fee-changed" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm font-semibold text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100 outline-none">{feeNotice}</p>}
      <div className="rounded-md border border-slate-200 p-4 dark:border-slate-700">
        <p className="flex justify-between font-semibold"><span>Application fee</span><span data-testid="fee" aria-busy={amount ? undefined : true}>{amount ?? 'Loading…'}</span></p>
        <p className="mt-1 text-sm muted">The application fee is non-refundable.</p>
        {note && <p className="mt-1 text-sm muted" data-testid="fee-unconfirmed">{note}</p>}
      </div>
      <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50" role="note">
        This is a simulated payment: no actual payment is processed in this demo.
      </p>
      <fieldset>
        <legend className="label">Payment method</legend>
        <div className="flex gap-6">
          {(['card', 'paypal'] as const).map((m) => (
            <label key={m} className="flex min-h-11 items-center gap-2 text-sm">
              <input type="radio" value={m} {...register('payment.paymentMethod')} />
              {m === 'card' ? 'Credit or debit card' : 'PayPal'}
            </label>
          ))}
        </div>
      </fieldset>
      {method === 'card' ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="sm:col-span-2"><TextField path="payment.cardName" label="Name on card" autoComplete="cc-name" /></div>
          <div className="sm:col-span-2"><TextField path="payment.cardNumber" label="Card number" autoComplete="cc-number" inputMode="numeric" placeholder="1234 5678 9012 3456" /></div>
          <TextField path="payment.cardExpiry" label="Expiry date (MM/YY)" autoComplete="cc-exp" placeholder="MM/YY" />
          <TextField path="payment.cardCvc" label="CVC" autoComplete="cc-csc" inputMode="numeric" placeholder="123" />
          <p className="text-xs muted sm:col-span-2">We keep only the last four digits of your card number and never store the CVC.</p>
        </div>
      ) : (
        <p className="rounded-md bg-slate-100 p-3 text-sm dark:bg-slate-800" role="note">You will be redirected to PayPal to complete your payment after you submit your application.</p>
      )}
      <CheckField path="payment.paymentTerms">
        I agree to the payment terms and understand that the {amount ? `${amount} ` : ''}application fee is non-refundable.
      </CheckField>
    </div>
  );
}
