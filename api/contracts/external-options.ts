/**
 * Option sets of the external system (spec §3 External student status, External payment method), kept free
 * of zod so pages that only need the lists (student filter) do not ship the validator.
 */
export const EXTERNAL_STUDENT_STATUSES = ['active', 'pending', 'graduated', 'withdrawn'] as const;
export const EXTERNAL_PAYMENT_METHODS = ['card', 'cash', 'transfer', 'mobile'] as const;
export const PAYMENT_METHOD_LABELS: Record<(typeof EXTERNAL_PAYMENT_METHODS)[number], string> = {
  card: 'Card', cash: 'Cash', transfer: 'Bank transfer', mobile: 'Mobile payment',
};
/** Currencies offered by the add-payment form; ZAR is the default (spec §5, DESIGN §4 Locale). */
export const EXTERNAL_CURRENCIES = ['ZAR', 'USD', 'EUR', 'GBP', 'BWP', 'NAD', 'LSL', 'SZL', 'ZWL'] as const;
