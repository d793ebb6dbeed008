/** External students enrolled directly (spec §3 External student): the name and address are NFC-normalised (names audit). */
import { describe, expect, it } from 'vitest';
import { ExternalStudentInputSchema } from './external.ts';

describe('external contracts', () => {
  it('ExternalStudentInputSchema › a decomposed name and address parse to the composed ones', () => {
    const r = ExternalStudentInputSchema.parse({
      name: ' Siobhán O’Neill '.normalize('NFD'), email: 'siobhan@example.com', address: '3 Ṱhohoyanḓou Road'.normalize('NFD'),
      branchId: '1', course: 'Certificate in Bookkeeping',
    });
    expect(r.name).toBe('Siobhán O’Neill');
    expect(r.address).toBe('3 Ṱhohoyanḓou Road');
  });
});
