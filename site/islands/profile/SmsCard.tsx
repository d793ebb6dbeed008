/**
 * SMS updates on the profile (issue #17): shows the number SMS go to (E.164) and lets the applicant turn SMS
 * about their applications off or on again (PUT /api/sms/preference). A STOP reply shows here as "off", with the box
 * locked: only a START reply from that phone turns SMS on again (the API answers 409 otherwise).
 */
import { useEffect, useRef, useState } from 'react';
import { SMS_STOPPED_BY_REPLY, type SmsPreference } from '#contracts/sms.ts';
import { api } from '../../lib/api-client.ts';
import { toast } from '../../stores/toasts.ts';
import { errorText } from '../auth/form-helpers.ts';
import { formatPhone } from '../../lib/phone.ts';

export default function SmsCard({ phone }: { phone: string | null | undefined }) {
  const [pref, setPref] = useState<SmsPreference | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The guard while the PUT is on its way: the box stays focusable (aria-disabled, not disabled: a disabled box drops
  // the focus to the page, and a second Space did nothing; accessibility audit, November 2026).
  const busyNow = useRef(false);
  const load = () => {
    setError(null);
    api<SmsPreference>('/api/sms/preference').then(setPref).catch((e) => setError(errorText(e, 'Could not load your SMS setting.')));
  };
  useEffect(load, [phone]);

  const change = async (wantSms: boolean) => {
    if (!pref || busyNow.current) return;
    busyNow.current = true;
    const before = pref;
    // The box follows the tap at once; a refusal puts it back (a 2G answer can take seconds).
    setPref({ ...pref, optedOut: !wantSms });
    setBusy(true);
    try {
      setPref(await api<SmsPreference>('/api/sms/preference', { method: 'PUT', json: { optOut: !wantSms } }));
      toast({ title: wantSms ? 'SMS updates on' : 'SMS updates off', description: wantSms ? 'We will text you about your applications.' : 'We will not send you SMS any more.', variant: 'success' });
    } catch (err) {
      setPref(before);
      toast({ title: 'Update failed', description: errorText(err, 'An error occurred'), variant: 'destructive' });
    } finally { busyNow.current = false; setBusy(false); }
  };

  return (
    <section aria-labelledby="sms-title" className="card p-6">
      <h2 id="sms-title" className="text-xl font-semibold">SMS updates</h2>
      <p className="mt-1 text-sm muted">We text you when we receive an application, when its status changes and when a document needs replacing. You can also reply STOP to any message.</p>
      {error ? (
        <div role="alert" className="mt-4 text-sm"><p>{error}</p><button type="button" className="btn-secondary mt-2" onClick={load}>Try again</button></div>
      ) : !pref ? (
        <div className="skeleton mt-4 h-6 w-1/2" aria-busy="true" aria-label="Loading your SMS setting" />
      ) : (
        <div className="mt-4 space-y-2">
          <label className="flex items-center gap-3">
            {/* shrink-0 and min-w-0: at 200 % text on a 360 px phone the label wraps and the box keeps its size. */}
            <input type="checkbox" className="h-5 w-5 shrink-0 aria-disabled:cursor-not-allowed" checked={!pref.optedOut} disabled={!pref.phone || pref.stoppedByReply} aria-disabled={busy || undefined}
              onClick={(e) => { if (busyNow.current) e.preventDefault(); }} onChange={(e) => change(e.currentTarget.checked)} data-testid="sms-toggle" />
            <span className="min-w-0">Send me SMS updates about my applications</span>
          </label>
          <p className="text-sm muted" data-testid="sms-number">
            {pref.phone ? `Messages go to ${formatPhone(pref.phone)}.` : 'Add a valid phone number to your details to receive SMS.'}
            {pref.stoppedByReply ? ` ${SMS_STOPPED_BY_REPLY}` : ''}
          </p>
        </div>
      )}
    </section>
  );
}
