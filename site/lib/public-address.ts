/**
 * Whether a picture link may be fetched by the site build (ASVS 5.0 V1.3.6 server-side request forgery): an admin's
 * `imageUrl` must name a host whose every address is on the public internet. Loopback, private (RFC 1918, RFC 4193),
 * link-local (the cloud metadata service at 169.254.169.254 among them), shared (100.64/10), multicast and unspecified
 * addresses are refused, so a link cannot make the server read from the college's own network. A test or a
 * college intranet can allow them with SITE_IMAGES_FROM_PRIVATE_HOSTS=1.
 *
 * The check resolves the name once; a name that changes its answer between this check and the download (DNS
 * rebinding) is not covered.
 */
import dns from 'node:dns/promises';
import net from 'node:net';

const blocked = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) blocked.addSubnet(address, prefix, 'ipv6');

/** True when the IP address `ip` (v4, v6 or v4-mapped v6) is a public unicast address. */
export function isPublicAddress(ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  const v4 = mapped ?? (net.isIPv4(ip) ? ip : null);
  if (v4) return !blocked.check(v4, 'ipv4');
  return net.isIPv6(ip) && !blocked.check(ip, 'ipv6');
}

/**
 * Why the build will not fetch `url`, or null when it may: not http(s), a host that does not resolve, or one with a
 * non-public address (see the module comment). `allowPrivate` defaults to SITE_IMAGES_FROM_PRIVATE_HOSTS=1.
 */
export async function imageLinkProblem(url: string, allowPrivate = process.env.SITE_IMAGES_FROM_PRIVATE_HOSTS === '1'): Promise<string | null> {
  let host: string;
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'not an http(s) link';
    host = u.hostname.replace(/^\[|\]$/g, '');
  } catch { return 'not a link'; }
  if (allowPrivate) return null;
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch { return `${host} does not resolve`; }
  const inner = addresses.find((a) => !isPublicAddress(a));
  return inner ? `${host} is not a public address (${inner})` : null;
}
