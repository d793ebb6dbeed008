/**
 * One origin rule for every link in mail and SMS (mail audit): in development without PUBLIC_URL, reset and
 * verification links used http://localhost:PORT while application links used the request's Host, so one applicant's
 * mails pointed at two different sites (and a forged Host header chose where application links went).
 */
import { describe, expect, it } from 'vitest';
import { fileDriverWarning, linkOrigin, publicUrlWarning, siteOrigin } from './links.ts';

const req = (host: string) => ({ protocol: 'http', get: (h: string) => (h.toLowerCase() === 'host' ? host : undefined) }) as any;

describe('link origin', () => {
  it('without PUBLIC_URL, application links use the same origin as token links (the listen address), whatever Host the request named', () => {
    const config = { PUBLIC_URL: undefined, HOST: '0.0.0.0', PORT: 4337 };
    expect(siteOrigin(config)).toBe('http://localhost:4337');
    expect(linkOrigin(config, req('192.168.1.20:4337'))).toBe(siteOrigin(config));
    expect(linkOrigin(config, req('evil.example'))).toBe(siteOrigin(config));
  });

  it('with PUBLIC_URL both are its origin', () => {
    const config = { PUBLIC_URL: 'https://apply.college.example/some/path', HOST: 'localhost', PORT: 4321 };
    expect(linkOrigin(config, req('node-2:4321'))).toBe('https://apply.college.example');
    expect(siteOrigin(config)).toBe('https://apply.college.example');
  });

  it('publicUrlWarning › one line when PUBLIC_URL is unset, naming the origin links will use; nothing when set', () => {
    expect(publicUrlWarning({ PUBLIC_URL: undefined, HOST: 'localhost', PORT: 4337 })).toMatch(/PUBLIC_URL is not set.*http:\/\/localhost:4337/);
    expect(publicUrlWarning({ PUBLIC_URL: 'https://apply.college.example', HOST: 'localhost', PORT: 4337 })).toBeNull();
  });

  it('fileDriverWarning › production that writes mail or SMS to files says nothing reaches applicants, naming which; silent when both send, and outside production', () => {
    expect(fileDriverWarning({ NODE_ENV: 'production', SMTP_URL: undefined, SMS_DRIVER: 'file' })).toMatch(/writes mail \(SMTP_URL unset.*and SMS \(SMS_DRIVER=file.*nothing reaches applicants/);
    expect(fileDriverWarning({ NODE_ENV: 'production', SMTP_URL: 'smtp://relay:587', SMS_DRIVER: 'file' })).toMatch(/writes SMS \(SMS_DRIVER=file/);
    expect(fileDriverWarning({ NODE_ENV: 'production', SMTP_URL: 'smtp://relay:587', SMS_DRIVER: 'http' })).toBeNull();
    expect(fileDriverWarning({ NODE_ENV: 'development', SMTP_URL: undefined, SMS_DRIVER: 'file' })).toBeNull();
  });
});
