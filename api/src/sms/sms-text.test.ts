/**
 * Performance regression (bench/api.ts submits, RESULTS "first readings on the submit rate"): the receipt SMS of every
 * submit is fitted to one GSM-7 segment inside the submit's transaction, and gsm7Length built one sms-segments-calculator
 * SegmentedMessage per call — per character of the course title in cutToWord — so the event loop was busy for
 * milliseconds while every open submit transaction waited ('idle in transaction'). Work is counted by the library's
 * segment builds (one per SegmentedMessage), not timed; and gsm7Length must keep the library's answers.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SegmentedMessage } from 'sms-segments-calculator';
import { documentRejectedSms, gsm7Length, receiptSms } from './sms-text.ts';

/** The library's own count, as gsm7Length counted before. */
const reference = (text: string) => {
  const m = new SegmentedMessage(text, 'auto');
  return m.encodingName === 'GSM-7' ? m.messageSize / 7 : Infinity;
};

afterEach(() => { vi.restoreAllMocks(); });

describe('SMS text: cost of fitting a message', () => {
  it('a receipt SMS for a long course title builds no SegmentedMessage once its characters are known', () => {
    const title = 'Higher Certificate in Electrical Engineering and Renewable Energy Systems (NQF Level 5), Thohoyandou Campus, weekend classes';
    const link = (id: number) => `https://apply.vhembe-skills-college.example/applications/${id}`;
    receiptSms(123456, title, link(123456));
    // Counted by the library's segment builder, which runs once per SegmentedMessage.
    const builds = vi.spyOn(SegmentedMessage.prototype as any, '_buildSegments');
    const text = receiptSms(654321, title, link(654321));
    expect(gsm7Length(text)).toBeLessThanOrEqual(160);
    expect(text).toMatch(/^VSC: .*APP-654321.* Higher Certificate in .*\.\.\. Track it: /);
    // Before: one per whole text measured and one per character cutToWord tried (64 here), on every submit.
    expect(builds.mock.calls.length).toBe(0);
  });
});

describe('gsm7Length gives the library\'s answer', () => {
  const alphabet = [
    ...'abcxyzABCXYZ0189 .,;:!?\'"()-_/@#%&*+=<>$\n\r', ...'{}[]~|^\\€', ...'£¥èéùìòÇØøÅåΔΦΓΛΩΠΨΣΘΞÆæßÉÄÖÑÜ§¿äöñüà¤¡',
    '`', 'ë', 'ç', '’', '—', '…', '🎓', '\u0301', '\u200d', '\ufe0f', '\t', '\f', 'ж', '中',
  ];
  it('on fixed cases', () => {
    for (const t of ['', 'a', 'a\r\nb', '\r\n', '\n\r', 'e\u0301', '{}[]~|^\\€', 'Zoë 🎓', 'Ça va', 'x'.repeat(170), '€'.repeat(90), 'a\rb\nc']) {
      expect(gsm7Length(t), JSON.stringify(t)).toBe(reference(t));
    }
  });
  it('on 2 000 random texts of GSM-7 and other characters', () => {
    let seed = 17;
    const rand = (n: number) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    for (let i = 0; i < 2000; i++) {
      // Mostly GSM-7 texts (the common case), some with one character from outside it.
      const pool = i % 4 === 0 ? alphabet : alphabet.slice(0, alphabet.indexOf('`'));
      const t = Array.from({ length: rand(200) }, () => pool[rand(pool.length)]!).join('');
      expect(gsm7Length(t), JSON.stringify(t)).toBe(reference(t));
    }
  });
  it('documentRejectedSms still fits a reason of extension characters', () => {
    expect(gsm7Length(documentRejectedSms(3, 'ID Document', '{'.repeat(120), 'https://vsc.example/applications/3'))).toBeLessThanOrEqual(160);
  });
});
