/**
 * A production-shaped front for one node, for benchmarks that measure what a browser gets over the internet
 * (bench/data-budget.ts with BENCH_VIA=h2): HAProxy terminating TLS with `alpn h2,http/1.1` (README: PUBLIC_URL
 * is https in production; "Running several nodes" puts HAProxy in front), plain HTTP/1.1 to the node behind it.
 * The certificate is a throw-away self-signed one (openssl, RSA 2048, SAN IP:127.0.0.1 and DNS:localhost), so the
 * browser must be told to trust it: Chromium with `--ignore-certificate-errors-spki-list=<spki>` (`chromiumTrustFlag`)
 * treats it as valid. Not `--ignore-certificate-errors`: with it pages load and the service worker registers, but
 * every response stays "insecure" and Chromium keeps none in its HTTP cache (a warm /about cost 24.6 KB instead of
 * 5), so the warm figures would be wrong; Playwright's `ignoreHTTPSErrors` alone does not even let the worker register
 * ("An SSL certificate error occurred when fetching the script").
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { startHaproxy } from '../tests/scale/haproxy.ts';

/**
 * HAProxy configuration: frontend on 127.0.0.1:`port` with TLS (`crt` = a PEM holding certificate and key) and ALPN
 * h2 then http/1.1, one backend server 127.0.0.1:`nodePort`. `option forwardfor` and X-Forwarded-Proto https, which
 * the node believes with TRUST_PROXY=loopback (secure cookies, HSTS, as in production). Timeouts as
 * tests/scale/haproxy.ts (ms unless suffixed).
 */
export function tlsProxyConfig(opts: { port: number; nodePort: number; pem: string }): string {
  return `global
  maxconn 4096

defaults
  mode http
  timeout connect 2s
  timeout client 30s
  timeout server 30s
  timeout http-request 10s

frontend college_tls
  bind 127.0.0.1:${opts.port} ssl crt ${opts.pem} alpn h2,http/1.1
  option forwardfor
  http-request set-header X-Forwarded-Proto https
  default_backend node

backend node
  server node1 127.0.0.1:${opts.nodePort}
`;
}

/**
 * Writes a self-signed certificate and key as one PEM under `dir` (openssl req -x509, valid 2 days) and returns its path.
 * Throws (openssl's message) if openssl is missing or fails.
 */
export function selfSignedPem(dir: string): string {
  const key = path.join(dir, 'key.pem'), cert = path.join(dir, 'cert.pem'), pem = path.join(dir, 'haproxy.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: ['ignore', 'ignore', 'pipe'] });
  fs.writeFileSync(pem, fs.readFileSync(cert, 'utf8') + fs.readFileSync(key, 'utf8'));
  return pem;
}

/**
 * The Chromium switch that trusts the certificate in `pem` (its first certificate): `--ignore-certificate-errors-spki-list=`
 * with the base64 SHA-256 of its SubjectPublicKeyInfo (DER). Chromium then reports the connection as secure and caches
 * its responses like any https site's.
 */
export function chromiumTrustFlag(pem: string): string {
  const spki = new crypto.X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' });
  return `--ignore-certificate-errors-spki-list=${crypto.createHash('sha256').update(spki).digest('base64')}`;
}

/**
 * Starts HAProxy with TLS on `port` in front of the node on `nodePort` (certificate and configuration in `dir`,
 * which the caller removes). Resolves with the https origin, the Chromium switch that trusts its certificate and `stop()` (SIGTERM, waits for the exit; safe to call
 * twice). Throws if haproxy rejects the configuration or exits at start.
 */
export async function startTlsProxy(opts: { port: number; nodePort: number; dir: string }): Promise<{ url: string; chromiumFlag: string; stop(): Promise<void> }> {
  const pem = selfSignedPem(opts.dir);
  const chromiumFlag = chromiumTrustFlag(fs.readFileSync(pem, 'utf8'));
  const h = await startHaproxy(tlsProxyConfig({ port: opts.port, nodePort: opts.nodePort, pem }), opts.dir);
  // If the bench dies without reaching its finally (an uncaught error), haproxy must not outlive it.
  const onExit = () => { if (h.proc.exitCode === null) h.proc.kill('SIGTERM'); };
  process.once('exit', onExit);
  return { url: `https://127.0.0.1:${opts.port}`, chromiumFlag, stop: async () => { process.off('exit', onExit); await h.stop(); } };
}
