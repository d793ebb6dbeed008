import { describe, expect, it } from 'vitest';
import { safeRedirect, destinationAfterLogin } from './safe-redirect.ts';

describe('login redirect', () => {
  it('keeps same-site paths with their query and fragment', () => {
    expect(safeRedirect('/apply/3')).toBe('/apply/3');
    expect(safeRedirect('/my-applications?tab=pending#top')).toBe('/my-applications?tab=pending#top');
  });

  it('refuses anything that could leave the site', () => {
    for (const bad of ['https://evil.example/', '//evil.example', '/\\evil.example', '\\\\evil.example', 'javascript:alert(1)',
      '/\t/evil.example', '/\n/evil.example', 'evil.example', '', ' /apply', 'http:/evil.example', '/%09/evil.example'.replace('%09', '\t')]) {
      expect(safeRedirect(bad), JSON.stringify(bad)).toBeNull();
    }
  });

  it('falls back to the dashboard of the role', () => {
    expect(destinationAfterLogin('admin', '//evil.example')).toBe('/dashboard/admin');
    expect(destinationAfterLogin('student', null)).toBe('/dashboard/student');
    expect(destinationAfterLogin('student', '/apply/2')).toBe('/apply/2');
  });
});
