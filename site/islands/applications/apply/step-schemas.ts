/**
 * The wizard's step schemas in step order (index = step, 0..4; spec §5 Steps 1–4 and the certification of Review &
 * Submit), from api/contracts/applications.ts. form.ts loads this module on demand: importing the five schemas by
 * name, rather than the contract module as a whole, lets the bundler leave out the server-only schemas (status
 * updates, drafts) and what they import (issue #17: the wizard's JavaScript).
 */
import { AcademicStepSchema, DocumentsStepSchema, PaymentStepSchema, PersonalStepSchema, ReviewStepSchema } from '#contracts/applications.ts';

export const STEP_SCHEMAS = [PersonalStepSchema, AcademicStepSchema, DocumentsStepSchema, PaymentStepSchema, ReviewStepSchema] as const;
