import { describe, expect, it } from 'vitest';
import { formatPhone } from './phone.ts';

describe('formatPhone (plain-language audit 8)', () => {
  it('shows South African numbers national and spaced, whichever way they were stored', () => {
    expect(formatPhone('+27821234567')).toBe('082 123 4567');
    expect(formatPhone('0821234567')).toBe('082 123 4567');
    expect(formatPhone('27821234567')).toBe('082 123 4567');
    expect(formatPhone('015 962 0000')).toBe('015 962 0000');
  });
  it('other countries international; nothing as nothing; unreadable as given', () => {
    expect(formatPhone('+447911123456')).toBe('+44 7911 123456');
    expect(formatPhone(null)).toBe('');
    expect(formatPhone('')).toBe('');
    expect(formatPhone('call me')).toBe('call me');
  });
  it('a number stored before letters were refused is shown as stored, not as a shorter dialable one', () => {
    expect(formatPhone('082123456b')).toBe('082123456b');
    expect(formatPhone('082 123 4567 ext 2')).toBe('082 123 4567 ext 2');
  });
});
