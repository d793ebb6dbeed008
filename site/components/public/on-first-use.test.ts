/**
 * The assessment form's date pickers get their bounds in South African time (on-first-use.ts enhanceOnUse, with the
 * `data-today` values AssessmentForm.astro gives them): the preferred date from today, the date of birth up to
 * yesterday, since the date-of-birth rule refuses today. The page is stood in for by a minimal document.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { enhanceOnUse } from './on-first-use.ts';

/** The `data-today` value AssessmentForm.astro puts on a field. */
function dataToday(field: string): string {
  const markup = fs.readFileSync(new URL('./AssessmentForm.astro', import.meta.url), 'utf8');
  const m = new RegExp(`name="${field}"[^\\n]*'data-today': '([a-z]+)'`).exec(markup);
  if (!m) throw new Error(`no data-today on ${field}`);
  return m[1];
}

/** Runs enhanceOnUse on a page holding the form's two date inputs; returns their min/max. */
function boundsAt(iso: string): Record<string, { min?: string; max?: string }> {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date(iso) });
  const inputs: Record<string, { dataset: { today: string }; min?: string; max?: string }> = {
    dateOfBirth: { dataset: { today: dataToday('dateOfBirth') } },
    preferredDate: { dataset: { today: dataToday('preferredDate') } },
  };
  vi.stubGlobal('document', {
    querySelectorAll: (sel: string) => (sel === 'input[data-today]' ? Object.values(inputs) : []),
    querySelector: () => null,
  });
  enhanceOnUse();
  return Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, { min: v.min, max: v.max }]));
}

afterEach(() => { vi.useRealTimers(); vi.unstubAllGlobals(); });

describe('assessment form date bounds (South African days)', () => {
  it('the date of birth picker ends yesterday, the preferred date starts today', () => {
    expect(boundsAt('2026-11-26T10:00:00Z')).toEqual({
      dateOfBirth: { min: undefined, max: '2026-11-25' },
      preferredDate: { min: '2026-11-26', max: undefined },
    });
  });

  it('at 00:30 SAST (22:30 UTC the day before) both bounds follow the South African day', () => {
    expect(boundsAt('2026-11-25T22:30:00Z')).toEqual({
      dateOfBirth: { min: undefined, max: '2026-11-25' },
      preferredDate: { min: '2026-11-26', max: undefined },
    });
    expect(boundsAt('2027-01-01T00:30:00+02:00').dateOfBirth.max).toBe('2026-12-31');
  });
});
