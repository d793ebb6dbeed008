/**
 * Settings (issue #6 /admin/settings): application fee (decimal string 'NNN.NN', spec §9),
 * office e-mail, accreditation number and Portal Access URL. Stored values override the defaults from the
 * configuration (APPLICATION_FEE, OFFICE_EMAIL, PORTAL_ACCESS_URL) and content/site.json (accreditation number).
 * Other features read the fee through applicationFee(), never the table, and check the fee an applicant agreed
 * to with feeToCharge().
 */
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { SettingsSchema, type Settings } from '#contracts/settings.ts';
import { feeChangedMessage } from '#contracts/application-steps.ts';
import { HttpError } from '../../http/errors.ts';
import { readSettings, writeSettings } from './settings.repo.ts';
import { SITE_CONTENT } from '../../site-content.ts';

function defaults(config: Config): Settings {
  return { applicationFee: config.APPLICATION_FEE, officeEmail: config.OFFICE_EMAIL, accreditationNumber: SITE_CONTENT.accreditationNumber, portalAccessUrl: config.PORTAL_ACCESS_URL };
}

/** Stored settings over the defaults; a stored set that no longer passes SettingsSchema falls back to the defaults. */
export async function getSettings(db: Db, config: Config): Promise<Settings> {
  const stored = await readSettings(db);
  const merged: Record<string, unknown> = { ...defaults(config) };
  for (const key of Object.keys(merged)) if (typeof stored[key] === 'string') merged[key] = stored[key];
  const parsed = SettingsSchema.safeParse(merged);
  return parsed.success ? parsed.data : defaults(config);
}

/** Stores every field of `input` (already validated by SettingsSchema) in one transaction; returns the result. */
export async function saveSettings(db: Db, config: Config, input: Settings): Promise<Settings> {
  await writeSettings(db, input);
  return getSettings(db, config);
}

/** The application fee charged now, e.g. '50.00' (spec §9; admin-editable). */
export async function applicationFee(db: Db, config: Config): Promise<string> {
  return (await getSettings(db, config)).applicationFee;
}

/**
 * The fee to charge for a submit whose applicant was shown and agreed to `expected` ('75.50'; undefined from older
 * callers, who are charged the current fee as before). Throws 409 `fee_changed` with feeChangedMessage(current)
 * (also as the field error of 'payment.paymentTerms', the agreement to tick again) when the admin setting changed
 * since the page read it, so no one is charged an amount they did not agree to. The returned fee is the one the
 * caller stores: equal to `expected` whenever `expected` is given.
 */
export async function feeToCharge(db: Db, config: Config, expected: string | undefined): Promise<string> {
  const current = await applicationFee(db, config);
  if (expected !== undefined && expected !== current) {
    const message = feeChangedMessage(current);
    throw new HttpError(409, 'fee_changed', message, { 'payment.paymentTerms': message });
  }
  return current;
}
