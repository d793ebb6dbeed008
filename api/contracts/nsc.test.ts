import { describe, expect, it } from 'vitest';
import { APS_MAX, apsPoints, checkEligibility, computeAps, subjectName, type NscResult } from './nsc.ts';
import { NscResultsSchema } from './nsc-schema.ts';

const r = (subject: string, percent: number): NscResult => ({ subject, percent });

describe('APS (issue #18 point 2)', () => {
  it.each([
    [100, 7], [80, 7], [79, 6], [70, 6], [69, 5], [60, 5], [59, 4], [50, 4], [49, 3], [40, 3],
    [39, 2], [30, 2], [29, 1], [0, 1], [79.9, 6],
  ])('apsPoints(%s %%) is level %s', (percent, level) => {
    expect(apsPoints(percent)).toBe(level);
  });

  const seven = [
    r('English Home Language', 75), r('Tshivenda First Additional Language', 68), r('Mathematics', 55),
    r('Physical Sciences', 48), r('Life Sciences', 62), r('Geography', 81), r('Life Orientation', 90),
  ];
  it.each<[string, NscResult[], number]>([
    ['no results', [], 0],
    ['one subject', [r('Mathematics', 85)], 7],
    ['Life Orientation alone counts nothing', [r('Life Orientation', 95)], 0],
    ['seven subjects: LO excluded, the six others counted', seven, 6 + 5 + 4 + 3 + 5 + 7],
    ['best six of eight (the weakest dropped)', [...seven, r('History', 35)], 6 + 5 + 4 + 3 + 5 + 7],
    ['a strong eighth subject replaces the weakest', [...seven, r('History', 72)], 6 + 5 + 4 + 6 + 5 + 7],
    ['nine subjects at 80 % or more give the maximum', Array.from({ length: 9 }, (_, i) => r(`S${i}`, 80 + i)), APS_MAX],
    ['six subjects at 0 % score one point each', Array.from({ length: 6 }, (_, i) => r(`S${i}`, 0)), 6],
    ['"Other" subjects count like any other', [r('Other', 70), r('Mathematics', 70)], 12],
    ['an "Other" named Life Orientation is Life Orientation: left out', [{ subject: 'Other', name: 'Life Orientation', percent: 95 }, r('Mathematics', 50)], 4],
    ['… whatever its capitals and spaces', [{ subject: 'Other', name: '  life   ORIENTATION ', percent: 95 }, r('Mathematics', 50)], 4],
  ])('computeAps: %s', (_name, results, aps) => {
    expect(computeAps(results)).toBe(aps);
  });
});

describe('eligibility against a course (issue #18 point 4)', () => {
  const req = { minimumAps: 28, subjectRequirements: [{ subject: 'Mathematics', minimumPercent: 50 }, { subject: 'Physical Sciences', minimumPercent: 50 }] };
  it('names every shortfall: APS, a weak subject, a subject not taken', () => {
    const res = checkEligibility([r('Mathematics', 45), r('English Home Language', 60)], req);
    expect(res).toEqual({ eligible: false, reasons: ['APS 8 — 28 needed', 'Mathematics 45 % — 50 % needed', 'Physical Sciences not taken — 50 % needed'] });
  });
  it('meets the requirements exactly at the thresholds', () => {
    const results = [r('Mathematics', 50), r('Physical Sciences', 50), r('Geography', 80), r('History', 80), r('Accounting', 70), r('Life Sciences', 70)];
    expect(computeAps(results)).toBe(4 + 4 + 7 + 7 + 6 + 6);
    expect(checkEligibility(results, req)).toEqual({ eligible: true, reasons: [] });
  });
  it('a course without structured requirements accepts anyone', () => {
    expect(checkEligibility([], { minimumAps: 0, subjectRequirements: [] })).toEqual({ eligible: true, reasons: [] });
  });
});

describe('an "Other" result named like a listed subject is that subject (NSC audit, 2026-11-27)', () => {
  it('subjectName gives the listed name; other names stay as typed', () => {
    expect(subjectName({ subject: 'Other', name: ' mathematics ' })).toBe('Mathematics');
    expect(subjectName({ subject: 'Other', name: 'Robotics' })).toBe('Robotics');
    expect(subjectName({ subject: 'Geography', name: 'Mathematics' })).toBe('Geography');
  });
  it('meets a requirement on that subject', () => {
    const req = { minimumAps: 0, subjectRequirements: [{ subject: 'Mathematics', minimumPercent: 50 }] };
    expect(checkEligibility([{ subject: 'Other', name: 'Mathematics', percent: 95 }], req)).toEqual({ eligible: true, reasons: [] });
  });
  it('cannot be listed next to the same subject', () => {
    const res = NscResultsSchema.safeParse([{ subject: 'Mathematics', percent: 60 }, { subject: 'Other', name: 'mathematics', percent: 90 }]);
    expect(res.success).toBe(false);
    expect(res.error?.issues.map((i) => i.message)).toContain('Each subject can be listed only once');
  });
});
