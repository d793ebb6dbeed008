/**
 * isHttpUrl / httpUrl (common.ts) decide and give back what zod 4's `z.url({ protocol: /^https?$/ })` does, for
 * addresses people type and the tricks an attacker tries (other schemes, a missing //, tabs and line breaks that the
 * URL parser drops, spaces, odd hosts). zod is the oracle: a zod upgrade that changes its answer fails here.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { httpUrl, isHttpUrl } from './common.ts';

const ADDRESSES = [
  'https://img.example/a.png', 'http://img.example/a.png', 'HTTPS://IMG.EXAMPLE/A.PNG', 'Http://x.example', ' https://x.example/p?q=1#f ',
  'https://x.example:8443/a', 'https://user:pw@x.example/', 'https://127.0.0.1/a', 'https://[::1]/a', 'https://xn--n3h.example/',
  'https://☃.example/', 'https://x.example/a b', 'https://x.example/\u00e9', 'https://', 'https:///x', 'https://x', 'http://x..y',
  'https://exa\nmple.com/', 'https://example.com/\tx', '\thttps://example.com', 'https://example.com\r\n', 'https://ex ample.com/',
  'http:example.com', 'https:/x.example', 'http//x.example', '//x.example/a.png', 'x.example/a.png', 'www.x.example',
  'ftp://x.example/a.png', 'javascript:alert(1)', 'JAVASCRIPT://%0Aalert(1)', 'javascript://x.example/%0Aalert(1)',
  'data:image/png;base64,AAAA', 'file:///etc/passwd', 'mailto:a@b.example', 'httpx://x.example', 'https+x://x.example',
  'https://x.example/' + 'a'.repeat(3000), '', ' ', 'not a url', 'https://%', 'https://x.example:99999/', 'https://x.example:-1/',
  'https://[1::2::3]/', 'https://x_y.example/', 'https://x.example/<script>',
];

describe('httpUrl (common.ts) answers as zod\'s URL format with protocol /^https?$/', () => {
  const zodUrl = z.url({ error: 'Please enter a valid URL', protocol: /^https?$/ });
  const ours = httpUrl('Please enter a valid URL');
  for (const a of ADDRESSES) {
    it(`${JSON.stringify(a.length > 60 ? `${a.slice(0, 30)}…` : a)}`, () => {
      const want = zodUrl.safeParse(a);
      const got = ours.safeParse(a);
      expect(got.success).toBe(want.success);
      expect(isHttpUrl(a)).toBe(want.success);
      if (want.success) expect(got.data).toBe(want.data);
      else expect(got.error!.issues.map((i) => [i.path, i.message])).toEqual(want.error.issues.map((i) => [i.path, i.message]));
    });
  }
  it('refuses what is not text with the same message', () => {
    for (const v of [undefined, null, 3, true, {}, []]) {
      expect(ours.safeParse(v).error!.issues.map((i) => i.message)).toEqual(zodUrl.safeParse(v).error!.issues.map((i) => i.message));
    }
  });
});
