/**
 * HAProxy for the scale test (issue #13 point 4) and the README's "Running several nodes": the configuration
 * text (`haproxyConfig`) and a runner that starts `/usr/sbin/haproxy -db -f <file>` in the foreground.
 * Frontend `college` (round-robin over every node, health checks on /api/colfront/health; hashed `/_astro/` files
 * through backend `astro_files`, which asks the next node when one answers 404); frontend `one` (only the last
 * node) exists to measure one node behind the same balancer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const HAPROXY = process.env.HAPROXY_BIN || '/usr/sbin/haproxy';

/** The configuration for `nodes` (name → port) on 127.0.0.1. Timeouts in ms unless suffixed. */
export function haproxyConfig(opts: { port: number; onePort: number; nodes: { name: string; port: number }[] }): string {
  const servers = opts.nodes.map((n) => `  server ${n.name} 127.0.0.1:${n.port} check`).join('\n');
  const tracked = opts.nodes.map((n) => `  server ${n.name} 127.0.0.1:${n.port} track nodes/${n.name}`).join('\n');
  const last = opts.nodes[opts.nodes.length - 1];
  return `global
  maxconn 4096

defaults
  mode http
  option httplog
  # A node that refuses the connection (crashed, restarting) is retried on another node; a request that
  # reached a node is never replayed (POST is not idempotent), so the client sees a 502 and may retry.
  retries 3
  option redispatch
  timeout connect 2s
  timeout client 30s
  timeout server 30s
  timeout http-request 10s

frontend college
  bind 127.0.0.1:${opts.port}
  # The nodes set TRUST_PROXY to believe this header (one proxy: TRUST_PROXY=1).
  option forwardfor
  # The scheme is this frontend's, never the client's own header (a plain-http client sending https got Secure
  # cookies and HSTS; security audit 2026-11-28).
  http-request set-header X-Forwarded-Proto http
  use_backend astro_files if { path_beg /_astro/ }
  default_backend nodes

# Hashed build files. Their names change with the code and the pictures, so while nodes run different code (every
# rolling deploy) or have not all switched to a publish's build yet, a page from one node asks for files the other
# node does not have. A 404 here is retried on another node (L7 retry, HAProxy >= 2.0; GETs without a body only),
# so the page gets its file from the node that has it; a name no node has costs one try per retry, then 404.
backend astro_files
  balance roundrobin
  retry-on conn-failure empty-response 404
  # Every retry goes to another node (the default redispatches on the last retry only).
  option redispatch 1
  http-response set-header X-Served-By %[srv_name]
  # The same nodes, up or down as the health checks of backend nodes say (no second set of checks).
${tracked}

backend nodes
  balance roundrobin
  option httpchk GET /api/colfront/health
  http-check expect status 200
  # Checked every 1 s; 3 failures take a node out, 2 successes bring it back. A check may take 5 s: a node busy
  # with a deadline-day burst answers slowly, and with the default (the check interval, 1 s) both nodes failed
  # their checks together and HAProxy had no server left (503 for everyone; tests/scale/busy-health.ts).
  timeout check 5s
  default-server inter 1s fall 3 rise 2
  http-response set-header X-Served-By %[srv_name]
${servers}

frontend one
  bind 127.0.0.1:${opts.onePort}
  option forwardfor
  http-request set-header X-Forwarded-Proto http
  default_backend one_node

backend one_node
  option httpchk GET /api/colfront/health
  http-check expect status 200
  timeout check 5s
  default-server inter 1s fall 3 rise 2
  http-response set-header X-Served-By %[srv_name]
  server ${last.name} 127.0.0.1:${last.port} check
`;
}

/** Starts HAProxy with `config` (written to `dir/haproxy.cfg`); checks the file first (`-c`). */
export async function startHaproxy(config: string, dir: string): Promise<{ proc: ChildProcess; stop(): Promise<void> }> {
  const file = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(file, config);
  const check = spawn(HAPROXY, ['-c', '-q', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  check.stdout.on('data', (d) => { out += d; });
  check.stderr.on('data', (d) => { out += d; });
  const code = await new Promise<number | null>((r) => check.on('exit', r));
  if (code !== 0) throw new Error(`haproxy rejected the configuration:\n${out}`);
  const proc = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  proc.stderr?.on('data', (d) => { err = (err + d).slice(-4000); });
  await new Promise((r) => setTimeout(r, 300));
  if (proc.exitCode !== null) throw new Error(`haproxy exited: ${err}`);
  return {
    proc,
    stop: async () => {
      if (proc.exitCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}
