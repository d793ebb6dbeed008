/**
 * Names carried into college mail (mail audit): a first name like "Sam,\n\nURGENT: pay R500 now at http://…" was
 * accepted by every form and then greeted the owner of a stranger's address in a genuine Admissions mail. Every schema
 * that takes firstName/lastName shares one rule (personName, person-name.ts): letters of any script with their
 * combining marks, spaces, apostrophes, hyphens and full stops.
 */
import { describe, expect, it } from 'vitest';
import { SimpleRegisterSchema } from './sign-in.ts';
import { ComprehensiveRegisterSchema, ProfileUpdateSchema, RegisterPersonalSchema } from './auth.ts';
import { PersonalStepSchema } from './applications.ts';
import { WalkInApplicantSchema } from './walk-in.ts';
import { ContactMessageSchema } from './contact.ts';
import { AssessmentBookingSchema } from './assessment.ts';

/** Each schema with firstName/lastName, and the field messages it gives for `firstName`/`lastName` values. */
const SCHEMAS = {
  SimpleRegisterSchema, RegisterPersonalSchema, ComprehensiveRegisterSchema, ProfileUpdateSchema, PersonalStepSchema,
  WalkInApplicantSchema, ContactMessageSchema, AssessmentBookingSchema,
} as const;

function messagesFor(schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } }, firstName: string, lastName: string): { firstName?: string; lastName?: string } {
  const r = schema.safeParse({ firstName, lastName });
  const out: { firstName?: string; lastName?: string } = {};
  for (const i of r.error?.issues ?? []) {
    const key = i.path[0];
    if ((key === 'firstName' || key === 'lastName') && !out[key]) out[key] = i.message;
  }
  return out;
}

const GOOD = ['Ṋemudzivhadi', 'Ṋemudzivhadi'.normalize('NFD'), 'Zoë', 'Nomvula-Grace', "O'Neill", 'D’Almeida', 'van der Merwe', 'St. John', "'t Hooft", 'Sébastien', 'Ndlovu', 'Ǹgcobo', '李小龍', 'Мария'];
const BAD = [
  'Sam,\n\nURGENT: pay R500 now at http://evil.example', 'Sam\r\nBcc: x@example.com', 'Visit http://evil.example', 'Thandi2',
  '<b>Thandi</b>', 'Thandi: click', 'a/b', 'Tab\there', 'Zero\u200bwidth', 'Sam\u0000', 'Mpho!', 'R500',
];

describe('personName on every form that takes a person\'s name', () => {
  for (const [label, schema] of Object.entries(SCHEMAS)) {
    it(`${label} › real names pass (any script, combining marks, ' ’ - . and spaces)`, () => {
      for (const n of GOOD) expect(messagesFor(schema, n, n), n).toEqual({});
    });
    it(`${label} › control characters, digits, URLs, <>, : and / are refused with a clear message`, () => {
      for (const n of BAD) {
        expect(messagesFor(schema, n, n), JSON.stringify(n)).toEqual({
          firstName: 'First name may contain only letters, spaces, apostrophes, hyphens and full stops',
          lastName: 'Last name may contain only letters, spaces, apostrophes, hyphens and full stops',
        });
      }
    });
    it(`${label} › the spec's minimum-length messages are kept`, () => {
      expect(messagesFor(schema, 'A', '')).toEqual({ firstName: 'First name must be at least 2 characters', lastName: 'Last name must be at least 2 characters' });
    });
  }
});
