/** Application step 1 (spec §3 Personal Information): its text fields are NFC-normalised after trimming (names audit). */
import { describe, expect, it } from 'vitest';
import { PersonalStepSchema } from './applications.ts';

describe('application contracts', () => {
  it('PersonalStepSchema › a decomposed name and city parse to the composed ones', () => {
    const r = PersonalStepSchema.parse({
      courseId: 1, firstName: ' Ṱhilivhali'.normalize('NFD'), lastName: 'Ṋemudzivhadi '.normalize('NFD'), email: 'thili@example.com',
      phone: '0721234567', dateOfBirth: '2001-04-12', nationality: 'za', addressLine1: '12 Church Street',
      city: 'Thohoyanḓou'.normalize('NFD'), state: 'Limpopo', postalCode: '0950', country: 'za',
    });
    expect(r.firstName).toBe('Ṱhilivhali');
    expect(r.lastName).toBe('Ṋemudzivhadi');
    expect(r.city).toBe('Thohoyanḓou');
  });
});
