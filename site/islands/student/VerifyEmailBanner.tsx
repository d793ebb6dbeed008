/**
 * The student dashboard's banner while the account's e-mail is unverified (issue #12 finding 1): asks the person
 * to open the link we mailed and offers "Resend" (POST /api/auth/verify-email/resend; the server allows a few an
 * hour and answers with the message to show). Renders nothing once the address is verified.
 */
import { useState } from 'react';
import { api, ApiError } from '../../lib/api-client.ts';
import { toast } from '../../stores/toasts.ts';
import { BusyButton } from '../ui/BusyButton.tsx';

export function VerifyEmailBanner({ email, verified }: { email: string; verified: boolean }) {
  const [sending, setSending] = useState(false);
  if (verified) return null;
  async function resend() {
    setSending(true);
    try {
      const r = await api<{ message: string }>('/api/auth/verify-email/resend', { method: 'POST' });
      toast({ title: r.message });
    } catch (e) {
      toast({ title: e instanceof ApiError ? e.userMessage : 'Could not send the e-mail. Please try again.', variant: 'destructive' });
    } finally { setSending(false); }
  }
  return (
    <div role="status" className="mb-6 flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-900 sm:flex-row sm:items-center sm:justify-between dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
      <p className="min-w-0 [overflow-wrap:anywhere]"><strong>Please verify your e-mail address.</strong> We sent a link to {email}. Open it to confirm the address is yours.</p>
      <BusyButton className="btn-secondary shrink-0" onClick={() => void resend()} busy={sending}>{sending ? 'Sending…' : 'Resend'}</BusyButton>
    </div>
  );
}
