/** College settings an admin edits on /admin/settings (issue #6). Imports only zod. */
import { z } from 'zod';

export const SettingsSchema = z.object({
  applicationFee: z.string({ error: 'Application fee is required' }).trim()
    .regex(/^\d{1,6}(\.\d{1,2})?$/, 'Application fee must be an amount like 50.00')
    .transform((v) => Number(v).toFixed(2)).describe('Fee in dollars/rand, two decimals (spec §9: 50.00)'),
  officeEmail: z.string().trim().toLowerCase().pipe(z.email({ error: 'Please enter a valid email address' })).describe('Where contact messages go'),
  accreditationNumber: z.string().trim().min(1, 'Accreditation number is required').max(100),
  portalAccessUrl: z.url({ error: 'Please enter a valid URL', protocol: /^https?$/ }).describe("The header's 'Portal Access' target"),
});
export type SettingsInput = z.input<typeof SettingsSchema>;
export type Settings = z.output<typeof SettingsSchema>;
