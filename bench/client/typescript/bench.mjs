// How much the TypeScript client costs over a plain fetch: one session turn, importing the
// package, and building it.
//
//     make bench-client-typescript     # or: node bench/client/typescript/bench.mjs [--pairs N] [--imports N]
//
// Builds the client (tsc, timed: the cold build), starts the reference host (offline echo
// provider, no latency) on a free 127.0.0.1 port, and times the same session turn
// (`POST /v1/runs` continuing a fresh session at revision 0, with an Idempotency-Key, the answer
// parsed from JSON) made two ways against it:
//
// - `client`: `AgenticDriverClient.run(...)` (its transport: retries armed, timeouts, headers);
// - `fetch`: the same request with the platform's `fetch` and `response.json()`.
//
// The two are interleaved in pairs, alternating which goes first; sessions are created and
// deleted outside the timed part. Overhead is the ratio of the median turn times (target under
// 1.10). Import time is measured in fresh node processes (median), alternating the client with
// a one-file module from disk (the floor: the module loader itself). Writes bench/results/client-typescript.json.

import { execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PACKAGE = join(ROOT, 'clients', 'typescript');
const TURN_TARGET = 1.1;
const PROVIDER = { provider: 'echo', model: 'echo-1' };
const INPUT = 'How long does one turn take?';

const { values: args } = parseArgs({
  options: {
    pairs: { type: 'string', default: '1000' },
    warmup: { type: 'string', default: '100' },
    imports: { type: 'string', default: '15' },
    output: { type: 'string', default: join(ROOT, 'bench', 'results', 'client-typescript.json') },
  },
});

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const summary = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median_us: median(sorted) * 1000,
    p10_us: sorted[Math.floor(sorted.length / 10)] * 1000,
    p90_us: sorted[Math.floor((sorted.length * 9) / 10)] * 1000,
    mean_us: (sorted.reduce((a, b) => a + b, 0) / sorted.length) * 1000,
  };
};

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

// -- build ---------------------------------------------------------------------------------
const buildStarted = performance.now();
execFileSync(process.execPath, [join(PACKAGE, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(PACKAGE, 'tsconfig.json')], { stdio: 'inherit' });
const buildMs = performance.now() - buildStarted;
const entry = pathToFileURL(join(PACKAGE, 'dist', 'index.js')).href;
const { AgenticDriverClient } = await import(entry);

// -- host ----------------------------------------------------------------------------------
const token = randomBytes(24).toString('base64url');
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const host = spawn(join(ROOT, '.venv', 'bin', 'agentic-driver'), ['serve', '--port', String(port), '--log-level', 'warning'], {
  env: { ...process.env, AGENTIC_DRIVER_TOKEN: token },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const stopHost = () => new Promise((done) => {
  if (host.exitCode !== null) return done();
  host.once('exit', done);
  host.kill('SIGTERM');
});
try {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (host.exitCode !== null) throw new Error(`the host exited with ${host.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).status === 200) break;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error('the host did not become healthy');
    await new Promise((done) => setTimeout(done, 50));
  }

  // -- one turn, two ways --------------------------------------------------------------------
  const auth = { Authorization: `Bearer ${token}` };
  const client = new AgenticDriverClient({ baseUrl, token });
  const freshSession = async () => {
    const response = await fetch(`${baseUrl}/v1/sessions`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...PROVIDER, mode: 'history' }),
    });
    if (response.status !== 201 && response.status !== 200) throw new Error(`create failed: ${response.status} ${await response.text()}`);
    return (await response.json()).session;
  };
  const arms = {
    fetch: async (session) => {
      const body = { ...PROVIDER, input: INPUT, session: { id: session.id, revision: session.revision } };
      const started = performance.now();
      const response = await fetch(`${baseUrl}/v1/runs`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
        body: JSON.stringify(body),
      });
      if (response.status !== 200) throw new Error(`plain fetch turn failed: ${response.status} ${await response.text()}`);
      const text = (await response.json()).output.text;
      const elapsed = performance.now() - started;
      if (text !== `echo: ${INPUT}`) throw new Error(`unexpected answer ${text}`);
      return elapsed;
    },
    client: async (session) => {
      const started = performance.now();
      const result = await client.run({ ...PROVIDER, input: INPUT, session: { id: session.id, revision: session.revision } });
      const text = result.output.text;
      const elapsed = performance.now() - started;
      if (text !== `echo: ${INPUT}`) throw new Error(`unexpected answer ${text}`);
      return elapsed;
    },
  };
  const timed = async (name) => {
    const session = await freshSession();
    try {
      return await arms[name](session);
    } finally {
      await (await fetch(`${baseUrl}/v1/sessions/${session.id}`, { method: 'DELETE', headers: auth })).arrayBuffer();
    }
  };
  const pairs = Number(args.pairs);
  const warmup = Number(args.warmup);
  for (let i = 0; i < warmup; i++) {
    await timed('fetch');
    await timed('client');
  }
  const samples = { fetch: [], client: [] };
  for (let i = 0; i < pairs; i++) {
    for (const name of i % 2 === 0 ? ['fetch', 'client'] : ['client', 'fetch']) samples[name].push(await timed(name));
  }
  var turn = {
    pairs,
    warmup_pairs: warmup,
    fetch: summary(samples.fetch),
    client: summary(samples.client),
  };
  turn.ratio_of_medians = turn.client.median_us / turn.fetch.median_us;
  turn.median_of_pair_ratios = median(samples.client.map((value, i) => value / samples.fetch[i]));
  turn.overhead_us = turn.client.median_us - turn.fetch.median_us;
  turn.target_ratio = TURN_TARGET;
} finally {
  await stopHost();
}

// -- import time ---------------------------------------------------------------------------
const importMs = (specifier) => {
  const code = `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' }).trim());
};
// The floor: a one-file ES module from disk (the module loader's own cost), beside the client.
const floor = join(mkdtempSync(join(tmpdir(), 'bench-ts-')), 'one.mjs');
writeFileSync(floor, 'export const one = 1;\n');
const IMPORTS = { 'one-file module': pathToFileURL(floor).href, '@agentic-driver/client': entry };
for (const specifier of Object.values(IMPORTS)) importMs(specifier); // warm the file system cache
const importSamples = Object.fromEntries(Object.keys(IMPORTS).map((name) => [name, []]));
const runs = Number(args.imports);
for (let i = 0; i < runs; i++) {
  const names = i % 2 === 0 ? Object.keys(IMPORTS) : Object.keys(IMPORTS).reverse();
  for (const name of names) importSamples[name].push(importMs(IMPORTS[name]));
}
rmSync(dirname(floor), { recursive: true, force: true });
const imports = {
  runs,
  median_ms: Object.fromEntries(Object.entries(importSamples).map(([name, values]) => [name, median(values)])),
  min_ms: Object.fromEntries(Object.entries(importSamples).map(([name, values]) => [name, Math.min(...values)])),
};

console.log(`one session turn, ${turn.pairs} interleaved pairs (median, p10-p90):`);
for (const name of ['fetch', 'client']) {
  const s = turn[name];
  console.log(`  ${name.padEnd(6)} ${s.median_us.toFixed(0).padStart(8)} us  (${s.p10_us.toFixed(0)}-${s.p90_us.toFixed(0)})`);
}
const verdict = turn.ratio_of_medians < TURN_TARGET ? 'ok' : 'MISSED';
console.log(
  `  client overhead: ${turn.ratio_of_medians.toFixed(3)}x of plain fetch (+${turn.overhead_us.toFixed(0)} us; ` +
    `median of pair ratios ${turn.median_of_pair_ratios.toFixed(3)}x; target < ${TURN_TARGET}x: ${verdict})`,
);
console.log(`import time, fresh node process, median of ${runs}:`);
for (const [name, value] of Object.entries(imports.median_ms)) console.log(`  ${name.padEnd(24)} ${value.toFixed(1).padStart(6)} ms`);
console.log(`cold build (tsc -p clients/typescript/tsconfig.json): ${(buildMs / 1000).toFixed(2)} s`);

const record = {
  benchmark: 'client-typescript',
  node: process.version,
  machine: `${process.platform} ${process.arch}, ${cpus().length} cpus`,
  turn,
  import: imports,
  build: { tool: 'tsc', cold_ms: buildMs },
};
mkdirSync(dirname(args.output), { recursive: true });
writeFileSync(args.output, JSON.stringify(record, null, 2) + '\n');
console.log(`wrote ${relative(ROOT, args.output)}`);
