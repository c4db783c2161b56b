// Plays every contract-tests/scenarios/clients/*.json through the hand-written client, against
// one host started from contract-tests/host.json behind one fault proxy
// (contract-tests/harness/faultproxy.py, started from the repository's .venv).

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';

import { type Host, repoRoot, startHost } from '../harness.js';
import { tokenEnvironment, TOKENS } from '../scenarios/player.js';
import { loadClientScenarios, playClientScenario } from './player.js';

const CONTRACT_DIR = process.env.AGENTIC_DRIVER_CONTRACT_TESTS || join(repoRoot(), 'contract-tests');
const SCENARIOS_DIR = join(CONTRACT_DIR, 'scenarios', 'clients');
const PROXY_STARTUP_MS = 20_000;

interface Proxy {
  url: string;
  process: ChildProcess;
}

/** Starts the fault proxy in front of `upstream` and reads its `listening on URL` line. */
function startProxy(upstream: string): Promise<Proxy> {
  const python = process.env.AGENTIC_DRIVER_PYTHON || join(repoRoot(), '.venv', 'bin', 'python');
  const child = spawn(python, [join(CONTRACT_DIR, 'harness', 'faultproxy.py'), '--upstream', upstream], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the fault proxy printed no "listening on" line within ${PROXY_STARTUP_MS} ms`));
    }, PROXY_STARTUP_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the fault proxy exited with ${code}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^listening on (http:\/\/\S+)$/.exec(line.trim());
      if (match) {
        clearTimeout(timer);
        resolvePromise({ url: match[1]!, process: child });
      }
    });
  });
}

async function stopProxy(proxy: Proxy): Promise<void> {
  const child = proxy.process;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

const files = existsSync(SCENARIOS_DIR)
  ? readdirSync(SCENARIOS_DIR).filter((file) => file.endsWith('.json') && file !== 'schema.json').sort()
  : [];

describe('client scenarios (behind the fault proxy)', () => {
  let host: Host | undefined;
  let proxy: Proxy | undefined;

  before(async () => {
    host = await startHost({ config: join(CONTRACT_DIR, 'host.json'), env: tokenEnvironment() });
    proxy = await startProxy(host.baseUrl);
  });

  after(async () => {
    if (proxy) await stopProxy(proxy);
    if (host) await host.stop();
  });

  it('finds the shared client scenarios', () => {
    if (files.length === 0) throw new Error(`no scenarios in ${SCENARIOS_DIR}`);
  });

  for (const scenario of loadClientScenarios(SCENARIOS_DIR, files)) {
    it(scenario.name, async () => {
      await playClientScenario(scenario, { hostUrl: host!.baseUrl, proxyUrl: proxy!.url, token: TOKENS.full! });
    });
  }
});
