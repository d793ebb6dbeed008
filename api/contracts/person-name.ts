/**
 * The one rule for a person's first or last name on every form (registration, wizard step 1, profile, walk-in,
 * contact, assessment). A name is read back to people in genuine college mail ("Dear {firstName},"), so it may hold
 * only what names are made of: letters of any script with their combining marks (Ṋemudzivhadi, Zoë, 李小龍), spaces,
 * apostrophes (' and ’: O'Neill, 't Hooft), hyphens (Nomvula-Grace) and full stops (St. John). Line breaks and other
 * control characters, digits, URLs (':' '/'), '<>' and other punctuation are refused (mail audit: a first name
 * "Sam,\n\nURGENT: pay R500 now at http://…" greeted a stranger in a password-reset mail). Written with `zod/mini`,
 * importing only zod: islands validate with it.
 */
import * as z from 'zod/mini';

/** Letters (\p{L}) and combining marks (\p{M}), space, ' ’ - . ; at least one letter. */
export const PERSON_NAME_PATTERN = /^(?=.*\p{L})[\p{L}\p{M} '’.-]+$/u;

/** `${label} may contain only letters, spaces, apostrophes, hyphens and full stops` (the spec is silent on characters). */
export const personNameCharsMessage = (label: string): string => `${label} may contain only letters, spaces, apostrophes, hyphens and full stops`;

/**
 * A first or last name: trimmed, NFC-normalised (typed decomposed, ṱ as t + U+032D, and composed it is one name),
 * 2..80 characters (`${label} must be at least 2 characters`, spec §5; `${label} is too long`), then, when long enough,
 * PERSON_NAME_PATTERN (personNameCharsMessage). `label` is 'First name' or 'Last name'.
 */
export const personName = (label: string): z.ZodMiniString<string> => z.string({ error: `${label} must be at least 2 characters` })
  .check(
    z.trim(), z.normalize('NFC'),
    z.minLength(2, `${label} must be at least 2 characters`), z.maxLength(80, `${label} is too long`),
    // Too short already has its message (spec §5); a form shows one message per field.
    z.refine((v) => v.length < 2 || PERSON_NAME_PATTERN.test(v), personNameCharsMessage(label)),
  );
