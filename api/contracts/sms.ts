/**
 * SMS contracts (issue #17): the applicant's SMS preference (profile) and the BulkSMS inbound webhook body.
 * Written with `zod/mini` because the profile island validates with it in the browser (data budget).
 */
import { z } from 'zod/mini';

/** PUT /api/sms/preference body: `optOut: true` stops every SMS to this applicant. */
export const SmsPreferenceUpdateSchema = z.object({
  optOut: z.boolean({ error: 'Choose whether to receive SMS updates' }),
});
export type SmsPreferenceUpdate = z.infer<typeof SmsPreferenceUpdateSchema>;

/**
 * 409 message of PUT /api/sms/preference {optOut: false} when the number replied STOP: only a START reply from that
 * phone lifts it (WASPA code of conduct); the profile shows the same words.
 */
export const SMS_STOPPED_BY_REPLY = 'This number replied STOP. Reply START to any of our messages to receive SMS again.';

/** GET/PUT /api/sms/preference answer: the number SMS go to (E.164, null when none valid) and whether SMS are off. */
export interface SmsPreference { phone: string | null; optedOut: boolean; stoppedByReply: boolean }

/**
 * One inbound message as BulkSMS posts it to a webhook (https://www.bulksms.com/developer/json/v1/#tag/Webhooks):
 * a JSON array of message objects; we read `from` and `body` of those whose `type` is RECEIVED (or absent).
 */
const InboundMessageSchema = z.object({
  type: z.optional(z.string()),
  from: z.string({ error: 'from is required' }).check(z.minLength(3, 'from is required'), z.maxLength(32, 'from is too long')),
  body: z._default(z.string().check(z.maxLength(2000, 'body is too long')), ''),
});
export const SmsInboundSchema = z.union([z.array(InboundMessageSchema).check(z.maxLength(500, 'Too many messages')), InboundMessageSchema]);
export type SmsInbound = z.infer<typeof SmsInboundSchema>;
