/** Walk-in applicants (issue #18 point 6) typed at the desk: names are NFC-normalised like every other name (names audit). */
import { describe, expect, it } from 'vitest';
import { WalkInApplicantSchema } from './walk-in.ts';

describe('walk-in contracts', () => {
  it('WalkInApplicantSchema › a decomposed name parses to the composed one, trimmed', () => {
    const r = WalkInApplicantSchema.parse({
      firstName: 'Mukhethwa '.normalize('NFD'), lastName: ' Ḓavhana'.normalize('NFD'), email: 'mukhethwa@example.com',
      phone: '072 123 4567', campusId: 1, privacyConsent: true,
    });
    expect(r.firstName).toBe('Mukhethwa');
    expect(r.lastName).toBe('Ḓavhana');
    expect(r.lastName).toHaveLength(7);
  });
});
