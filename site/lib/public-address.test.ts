import { describe, expect, it } from 'vitest';
import { imageLinkProblem, isPublicAddress } from './public-address.ts';

describe('picture links the site build may fetch (SSRF, ASVS 5.0 V1.3.6)', () => {
  it('public addresses pass; loopback, private, link-local (cloud metadata), shared, unspecified and mapped ones do not', () => {
    for (const ip of ['8.8.8.8', '41.203.18.1', '2001:4860:4860::8888']) expect(isPublicAddress(ip), ip).toBe(true);
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.20.0.5', '192.168.1.10', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:169.254.169.254']) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
  });

  it('a link naming the metadata service, localhost or a private address is refused with the reason; a public one passes', async () => {
    expect(await imageLinkProblem('http://169.254.169.254/latest/meta-data/iam', false)).toBe('169.254.169.254 is not a public address (169.254.169.254)');
    expect(await imageLinkProblem('http://localhost:5432/x.jpg', false)).toMatch(/^localhost is not a public address \((127\.0\.0\.1|::1)\)$/);
    expect(await imageLinkProblem('http://[::1]/x.jpg', false)).toBe('::1 is not a public address (::1)');
    expect(await imageLinkProblem('ftp://example.com/x.jpg', false)).toBe('not an http(s) link');
    expect(await imageLinkProblem('https://8.8.8.8/photo.jpg', false)).toBeNull();
    expect(await imageLinkProblem('http://127.0.0.1:4700/x.jpg', true)).toBeNull();
  });
});
