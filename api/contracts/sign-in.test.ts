/**
 * Registration names (names audit): a name typed decomposed (as pasted from some PDFs: Ṱ as T + U+032D) is stored
 * as the same composed (NFC) name as one typed on a phone keyboard; the profile and comprehensive registration
 * share the `name` rule.
 */
import { describe, expect, it } from 'vitest';
import { SimpleRegisterSchema } from './sign-in.ts';
import { ProfileUpdateSchema } from './auth.ts';

const NFC_FIRST = 'Ṱhilivhali';
const NFC_LAST = 'Ṋemudzivhadi';

describe('sign-in contracts', () => {
  it('SimpleRegisterSchema › a decomposed name parses to the composed one, trimmed', () => {
    expect(NFC_FIRST.normalize('NFD')).not.toBe(NFC_FIRST);
    const r = SimpleRegisterSchema.parse({
      firstName: ` ${NFC_FIRST.normalize('NFD')} `, lastName: NFC_LAST.normalize('NFD'), email: 'thili@example.com',
      password: 'secret123', confirmPassword: 'secret123', phone: '0721234567', terms: true,
    });
    expect(r.firstName).toBe(NFC_FIRST);
    expect(r.lastName).toBe(NFC_LAST);
  });

  it('ProfileUpdateSchema › the same rule for a name changed in the profile', () => {
    const r = ProfileUpdateSchema.safeParse({ firstName: NFC_FIRST.normalize('NFD'), lastName: NFC_LAST.normalize('NFD'), phone: '0721234567' });
    expect(r.success).toBe(true);
    expect(r.data).toMatchObject({ firstName: NFC_FIRST, lastName: NFC_LAST });
  });
});
