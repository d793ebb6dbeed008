/** Amounts typed the South African way (money-input.ts): grouping, decimal comma, rand sign; ambiguity refused. */
import { describe, expect, it } from 'vitest';
import { normaliseAmountText, toTwoDecimals } from './money-input.ts';

describe('normaliseAmountText', () => {
  it('reads spaces, thin spaces and commas as grouping, one comma or point as the decimal mark, and a leading R', () => {
    const cases: [string, string][] = [['1 250,00', '1250.00'], ['1,250.00', '1250.00'], ['R1 250.50', '1250.50'], ['r 5', '5'],
      ['1,25', '1.25'], ['1.250,00', '1250.00'], ['1,250,000', '1250000'], ['1\u2009250,5', '1250.5'], ['1\u00A0250', '1250'],
      ['1 250 000.00', '1250000.00'], ['-5', '-5'], ['-R5', '-5'], ['1250', '1250']];
    for (const [typed, plain] of cases) expect(normaliseAmountText(typed), typed).toBe(plain);
  });
  it("keeps a lone comma as the decimal mark ('1,250' is 1.250, left for the 2-decimals rule to refuse)", () => {
    expect(normaliseAmountText('1,250')).toBe('1.250');
  });
  it('refuses what is not an amount', () => {
    for (const typed of ['', ' ', 'R', 'abc', '0x10', '1e3', '12 50', '1,2,3', '1.2.3', '1..2', '1,250.000,00', 'R1 250 R'])
      expect(normaliseAmountText(typed), typed).toBeNull();
  });
  it('toTwoDecimals pads without a float', () => {
    expect(toTwoDecimals('1250.5')).toBe('1250.50');
    expect(toTwoDecimals('007')).toBe('7.00');
    expect(toTwoDecimals('9999999999.99')).toBe('9999999999.99');
  });
});
