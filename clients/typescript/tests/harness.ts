/**
 * End-to-end harness: real host processes on a free 127.0.0.1 port.
 *
 * `startHost` writes a host JSON (or takes a config file), starts
 * `agentic-driver serve --config FILE --host 127.0.0.1 --port P`, polls `/healthz` (bounded)
 * and returns a `Host` to build clients from; `stop()` terminates it (then kills it).
 * The server comes from `$AGENTIC_DRIVER_SERVE` (a path to the `agentic-driver` executable)
 * or the repository's `.venv/bin/agentic-driver`. Scenario players reuse `startHost` with a
 * config file and token environment variables.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { AgenticDriverClient } from '../src/index.js';

const STARTUP_TIMEOUT_MS = 20_000;
const POLL_INTERVAL_MS = 50;
const STOP_TIMEOUT_MS = 5_000;

/** The repository root: the nearest ancestor holding openapi.yaml and server/. */
export function repoRoot(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(directory, 'openapi.yaml')) && existsSync(join(directory, 'server'))) return directory;
    const parent = dirname(directory);
    if (parent === directory) throw new Error('repository root (openapi.yaml + server/) not found');
    directory = parent;
  }
}

/** The `agentic-driver` executable that serves hosts. */
export function serveCommand(): string {
  const override = process.env.AGENTIC_DRIVER_SERVE;
  const command = override || join(repoRoot(), '.venv', 'bin', 'agentic-driver');
  if (!existsSync(command)) {
    throw new Error(`${command} not found: run \`make setup\` (or set AGENTIC_DRIVER_SERVE to the agentic-driver executable)`);
  }
  return command;
}

/** A port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

export interface HostOptions {
  /** Host JSON as an object (written to a temporary file), or the path of a host JSON file. */
  config: object | string;
  /** Extra environment for the host process (for example token variables named by `tokenEnv`). */
  env?: Record<string, string>;
  /** Serve HTTPS with this certificate and key (PEM files); `/healthz` is polled trusting `ca` (PEM). */
  tls?: { certFile: string; keyFile: string; ca: string };
}

export class Host {
  constructor(
    readonly baseUrl: string,
    private readonly process: ChildProcess,
    private readonly workDir: string,
    private readonly logPath: string,
  ) {}

  /** A client of this host with a bearer token (none: only `getHealth` works). */
  client(token?: string): AgenticDriverClient {
    return new AgenticDriverClient({ baseUrl: this.baseUrl, ...(token === undefined ? {} : { token }) });
  }

  log(): string {
    return existsSync(this.logPath) ? readFileSync(this.logPath, 'utf8') : '';
  }

  async stop(): Promise<void> {
    const child = this.process;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.workDir, { recursive: true, force: true });
  }
}

async function healthy(baseUrl: string, ca?: string): Promise<boolean> {
  if (ca !== undefined) {
    try {
      return (await new AgenticDriverClient({ baseUrl, ca, maxRetries: 0 }).getHealth()).status === 'ok';
    } catch {
      return false;
    }
  }
  try {
    const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2_000) });
    return response.status === 200 && ((await response.json()) as { status?: string }).status === 'ok';
  } catch {
    return false;
  }
}

/** Starts a host and waits (bounded) until `/healthz` answers. */
export async function startHost(options: HostOptions): Promise<Host> {
  const workDir = mkdtempSync(join(tmpdir(), 'agentic-driver-ts-e2e-'));
  let configPath: string;
  if (typeof options.config === 'string') {
    configPath = resolve(options.config);
  } else {
    configPath = join(workDir, 'host.json');
    writeFileSync(configPath, JSON.stringify(options.config, null, 2));
  }
  const port = await freePort();
  const logPath = join(workDir, 'host.log');
  const log = openSync(logPath, 'a');
  const child = spawn(
    serveCommand(),
    [
      'serve', '--config', configPath, '--host', '127.0.0.1', '--port', String(port), '--log-level', 'warning',
      ...(options.tls === undefined ? [] : ['--tls-cert', options.tls.certFile, '--tls-key', options.tls.keyFile]),
    ],
    { env: { ...process.env, ...options.env }, stdio: ['ignore', log, log] },
  );
  const host = new Host(`${options.tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`, child, workDir, logPath);
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if (await healthy(host.baseUrl, options.tls?.ca)) return host;
    await new Promise((done) => setTimeout(done, POLL_INTERVAL_MS));
  }
  const output = host.log();
  await host.stop();
  throw new Error(`host did not become healthy within ${STARTUP_TIMEOUT_MS} ms:\n${output}`);
}

/** Test tokens (at least 16 characters each). */
export const TOKENS = {
  full: 'ts-e2e-full-token-0001',
} as const;

/**
 * The host most end-to-end tests share: `echo` (bound to an account, so it holds sessions),
 * `echo-unbound` (no account binding: stateless only), sessions on, one token with every grant.
 */
export function standardHostConfig(): object {
  return {
    hostId: 'ts-e2e',
    providers: [
      { id: 'echo', kind: 'echo', accountId: 'acct-ts', models: ['echo-1'] },
      { id: 'echo-unbound', kind: 'echo', models: ['echo-1'] },
    ],
    sessions: { retentionMs: 600_000 },
    tokens: [
      { subject: 'ts-e2e', token: TOKENS.full, providers: ['*'], sessions: ['create', 'read', 'continue', 'delete'] },
    ],
  };
}
