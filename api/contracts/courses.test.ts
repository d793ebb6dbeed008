/** Course price input (courses.ts CoursePriceSchema): an amount in rand or nothing; no loose number parsing. */
import { describe, expect, it } from 'vitest';
import { CourseInputSchema, DURATION_POSITIVE, DURATION_REQUIRED, PRICE_MESSAGE } from './courses.ts';

const base = { title: 'T', description: 'D', level: 'certificate', duration: 12, department: 'Business', tuitionFee: 'R 1 000', startDate: 'January' };
const price = (p: unknown) => {
  const r = CourseInputSchema.safeParse({ ...base, price: p });
  return r.success ? { ok: r.data.price } : { error: r.error.issues.find((i) => i.path[0] === 'price')?.message };
};

describe('course price', () => {
  it('blank or absent means no price', () => {
    for (const p of ['', ' ', null, undefined]) expect(price(p), String(p)).toEqual({ ok: null });
  });
  it('takes amounts in rand, typed with a decimal point or comma, grouped or with an R', () => {
    const cases: [unknown, string][] = [['1250', '1250.00'], ['1250.5', '1250.50'], ['1 250,50', '1250.50'], ['R8 000', '8000.00'],
      ['8,000.00', '8000.00'], [1250.5, '1250.50'], ['0', '0.00']];
    for (const [typed, stored] of cases) expect(price(typed), String(typed)).toEqual({ ok: stored });
  });
  it('refuses hex, exponents, extra decimals and negatives with a clear message instead of guessing', () => {
    expect(price('0x10')).toEqual({ error: PRICE_MESSAGE });
    expect(price('1e3')).toEqual({ error: PRICE_MESSAGE });
    expect(price('abc')).toEqual({ error: PRICE_MESSAGE });
    expect(price(Number.NaN)).toEqual({ error: PRICE_MESSAGE });
    expect(price('1250.999')).toEqual({ error: 'Price can have at most 2 decimal places' });
    expect(price('8,000')).toEqual({ error: 'Price can have at most 2 decimal places' });
    expect(price('-5')).toEqual({ error: 'Price cannot be negative' });
    expect(price('99999999999')).toEqual({ error: 'Price is too large' });
    expect(price(1e308)).toEqual({ error: 'Price is too large' }); // a JSON number, not read in exponent notation
    expect(price(99999999999999)).toEqual({ error: 'Price is too large' });
  });
});

/** Duration (courses.ts CourseDurationSchema; QA audit 2026-11-28 item 2: '-3' said 'Duration is required'). */
describe('course duration', () => {
  const duration = (d: unknown) => {
    const r = CourseInputSchema.safeParse({ ...base, duration: d });
    return r.success ? { ok: r.data.duration } : { error: r.error.issues.filter((i) => i.path[0] === 'duration').map((i) => i.message).join(' | ') };
  };
  it('left blank or absent: Duration is required', () => {
    for (const d of [undefined, null, '', '   ']) expect(duration(d), String(d)).toEqual({ error: DURATION_REQUIRED });
  });
  it('filled with a negative number, zero or no number: Duration must be a positive number', () => {
    expect(DURATION_POSITIVE).toBe('Duration must be a positive number');
    for (const d of ['-3', -3, '0', 0, 'abc', Number.NaN, {}]) expect(duration(d), String(d)).toEqual({ error: DURATION_POSITIVE });
  });
  it('whole months 1–120, typed or sent as a number; fractions and more than 120 keep their messages', () => {
    for (const [d, months] of [['1', 1], [12, 12], [' 12 ', 12], ['120', 120]] as const) expect(duration(d), String(d)).toEqual({ ok: months });
    expect(duration('1.5')).toEqual({ error: 'Duration must be a whole number of months' });
    expect(duration(121)).toEqual({ error: 'Duration must be at most 120 months' });
  });
});
