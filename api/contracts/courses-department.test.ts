import { describe, expect, it } from 'vitest';
import { CourseInputSchema, CourseUpdateSchema, DEPARTMENT_MESSAGE } from './courses.ts';
import { DEPARTMENTS } from './statuses.ts';
import fs from 'node:fs';

const base = { title: 'T', description: 'D', level: 'certificate', duration: 12, tuitionFee: 'R 1 000', startDate: 'January' };

describe('course department (spec §2 admin: Departments are Business, Technology, Healthcare, Arts and Design)', () => {
  it('a typo is refused with a field message naming the departments; create and edit alike', () => {
    for (const schema of [CourseInputSchema, CourseUpdateSchema]) {
      const r = schema.safeParse({ ...base, department: 'busines' });
      expect(r.success).toBe(false);
      expect(r.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['department', DEPARTMENT_MESSAGE]]);
    }
    expect(DEPARTMENT_MESSAGE).toBe('Choose one of the departments: Business, Technology, Healthcare, Arts and Design.');
  });

  it('case and spaces do not make a new department: " arts  and design " is stored as "Arts and Design"', () => {
    expect(CourseInputSchema.parse({ ...base, department: ' arts  and design ' }).department).toBe('Arts and Design');
    expect(CourseInputSchema.parse({ ...base, department: 'BUSINESS' }).department).toBe('Business');
    expect(CourseInputSchema.safeParse({ ...base, department: '' }).error?.issues[0]?.message).toBe('Department is required');
  });

  it('every department of the seed catalogue (content/seed) stays valid', () => {
    const seed = JSON.parse(fs.readFileSync(new URL('../../content/seed/courses.json', import.meta.url), 'utf8')) as { department: string }[];
    const names = JSON.parse(fs.readFileSync(new URL('../../content/seed/departments.json', import.meta.url), 'utf8')) as string[];
    expect(names).toEqual([...DEPARTMENTS]);
    for (const c of seed) expect(CourseInputSchema.parse({ ...base, department: c.department }).department).toBe(c.department);
  });
});
