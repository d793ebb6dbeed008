/** The SA ID number as people type it (names audit): digit groups split by spaces or dashes. */
import { describe, expect, it } from 'vitest';
import { birthDateFromIdNumber, normalisedIdNumber, saIdNumberProblem } from './auth-rules.ts';

describe('SA ID number rules', () => {
  it('accepts the 13 digits typed with spaces or dashes, and reads the birth date from them', () => {
    for (const typed of ['0405065123086', '040506 5123 086', '040506-5123-086', '040506‑5123‑086', ' 040506 - 5123 - 086 ']) {
      expect(saIdNumberProblem(typed), typed).toBeNull();
      expect(birthDateFromIdNumber(typed), typed).toBe('2004-05-06');
    }
    expect(saIdNumberProblem('040506-5123-085')).toMatch(/not valid/);
  });

  it('stores a valid SA ID number as its digits; a passport number as typed', () => {
    expect(normalisedIdNumber('040506-5123-086')).toBe('0405065123086');
    expect(normalisedIdNumber(' 040506 5123 086 ')).toBe('0405065123086');
    expect(normalisedIdNumber(' P12-345678 ')).toBe('P12-345678');
    expect(normalisedIdNumber('040506-5123-085')).toBe('040506-5123-085');
  });
});
