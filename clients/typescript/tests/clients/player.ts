/**
 * The TypeScript player of contract-tests/scenarios/clients/*.json (format: that directory's
 * README.md): each `call` step is one logical call of the hand-written `AgenticDriverClient`
 * (default retry policy) whose base URL is the fault proxy; `faults` and `proxyLog` talk to
 * the proxy's control API; `metric` reads the host directly. Values, matchers and metrics are
 * those of the generated-client player (../scenario-values.ts, shared with ../scenarios/player.ts).
 */

import {
  AgenticDriverClient,
  ConnectionError,
  ProblemError,
  type RunEventStream,
  type RunStreamEvent,
  TimeoutError,
  UnknownProblemError,
} from '../../src/index.js';
import { type Json, loadScenarioFiles, matches, metricStep, playSteps, pointer, resolve, ScenarioFailure, type Step } from '../scenario-values.js';


const CONTROL_TIMEOUT_MS = 10_000;
/** The busy helper's bound in the scenarios (the README lets a player shorten it). */
const IDLE_WAIT_MS = 10_000;

export interface ClientScenario {
  name: string;
  data: Record<string, any>;
}

export function loadClientScenarios(directory: string, files: string[]): ClientScenario[] {
  return loadScenarioFiles(directory, files, 'scenarios/clients/schema.json').map((data) => ({ name: data.name, data }));
}

/** What one logical call came to. */
type Outcome = { ok: true; body: Json } | { ok: false; error: unknown };

interface Context {
  client: AgenticDriverClient;
  hostUrl: string;
  proxyUrl: string;
  variables: Map<string, Json>;
  background: Map<string, Promise<Outcome>>;
}

export interface Endpoints {
  hostUrl: string;
  proxyUrl: string;
  token: string;
}

export async function playClientScenario(scenario: ClientScenario, endpoints: Endpoints): Promise<void> {
  const client = new AgenticDriverClient({ baseUrl: endpoints.proxyUrl, token: endpoints.token });
  const context: Context = { client, ...endpoints, variables: new Map(), background: new Map() };
  try {
    await playSteps(scenario.name, scenario.data.steps as Step[], (step) => runStep(context, step));
  } finally {
    await Promise.allSettled(context.background.values());
    await control(endpoints.proxyUrl, 'POST', { faults: [] }); // disarm for the next scenario
  }
}

async function runStep(context: Context, step: Step): Promise<void> {
  if ('call' in step) return callStep(context, step);
  if ('await' in step) {
    const pending = context.background.get(step.await);
    if (pending === undefined) throw new ScenarioFailure(`no background call named ${step.await} is pending`);
    context.background.delete(step.await);
    return conclude(context, await pending, step);
  }
  if ('faults' in step) {
    const faults = (step.faults as Step[]).map((fault) => ({ ...fault, path: interpolate(fault.path, context.variables) }));
    await control(context.proxyUrl, 'POST', { faults: resolve(faults, context.variables) });
    return;
  }
  if ('proxyLog' in step) return proxyLog(context, step);
  if ('metric' in step) return metric(context, step);
  throw new ScenarioFailure(`unknown step ${JSON.stringify(step)}`);
}

async function callStep(context: Context, step: Step): Promise<void> {
  if ('background' in step) {
    const pending = invoke(context, step);
    context.background.set(step.background, pending);
    return;
  }
  if ('until' in step) {
    const deadline = Date.now() + Number(step.until.timeoutMs);
    for (;;) {
      const outcome = await invoke(context, step);
      if (problems(outcome, step.expect, context.variables).length === 0 || Date.now() > deadline) return conclude(context, outcome, step);
      await new Promise((done) => setTimeout(done, Number(step.until.intervalMs ?? 20)));
    }
  }
  return conclude(context, await invoke(context, step), step);
}

/** One logical call of the client, for the step's `call`, with the wire-named body. */
async function invoke(context: Context, step: Step): Promise<Outcome> {
  const { client, variables } = context;
  const path = resolve(step.path ?? {}, variables) as Record<string, Json>;
  const body = resolve(step.body ?? null, variables) as never;
  const headers = (step.headers ?? {}) as Record<string, string>;
  const keyed = headers['Idempotency-Key'] === undefined ? {} : { idempotencyKey: String(resolve(headers['Idempotency-Key'], variables)) };
  const id = (name: string) => String(path[name]);
  try {
    switch (step.call as string) {
      case 'createSession':
        return { ok: true, body: (await client.createSession(body, keyed)) as unknown as Json };
      case 'readSession':
        return { ok: true, body: (await client.readSession(id('sessionId'))) as unknown as Json };
      case 'deleteSession':
        await client.deleteSession(id('sessionId'));
        return { ok: true, body: null };
      case 'truncateSession':
        return { ok: true, body: (await client.truncateSession(id('sessionId'), body)) as unknown as Json };
      case 'forkSession':
        // A step without a body forks at the current revision, as `{}` does.
        return { ok: true, body: (await client.forkSession(id('sessionId'), step.body === undefined ? {} : body, keyed)) as unknown as Json };
      case 'run':
        return { ok: true, body: (await client.run(body, keyed)) as unknown as Json };
      case 'submitRunActions':
        return { ok: true, body: (await client.submitRunActions(id('runId'), body, keyed)) as unknown as Json };
      case 'cancelRun':
        return { ok: true, body: (await client.cancelRun(id('runId'))) as unknown as Json };
      case 'waitUntilIdle':
        return { ok: true, body: (await client.waitUntilIdle(id('sessionId'), { timeout: IDLE_WAIT_MS })) as unknown as Json };
      case 'streamRun':
        return { ok: true, body: await eventsOf(await client.streamRun(body, keyed)) };
      case 'getRun':
        return { ok: true, body: (await client.getRun(id('runId'))) as unknown as Json };
      case 'streamRunEvents': {
        const lastEventId = headers['Last-Event-ID'] === undefined ? {} : { lastEventId: String(resolve(headers['Last-Event-ID'], variables)) };
        return { ok: true, body: await eventsOf(await client.streamRunEvents(id('runId'), lastEventId)) };
      }
      default:
        throw new ScenarioFailure(`unknown call ${String(step.call)}`);
    }
  } catch (error) {
    if (error instanceof ScenarioFailure) throw error;
    return { ok: false, error };
  }
}

/** A stream read to its end, as the JSON array of its events' data (the README's form of a stream's body). */
async function eventsOf(stream: RunEventStream): Promise<Json[]> {
  const events: Json[] = [];
  for await (const event of stream as AsyncIterable<RunStreamEvent>) {
    events.push((event.type === 'unknown' ? event.data : event) as Json);
  }
  return events;
}

function describeOutcome(outcome: Outcome): string {
  if (outcome.ok) return `returned ${JSON.stringify(outcome.body).slice(0, 600)}`;
  const error = outcome.error;
  return `raised ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
}

function problems(outcome: Outcome, expect: Record<string, any>, variables: Map<string, Json>): string[] {
  if ('ok' in expect) {
    if (!outcome.ok) return [`expected a result`];
    const found: string[] = [];
    for (const [location, expected] of Object.entries((expect.body ?? {}) as Record<string, Json>)) {
      const actual = pointer(outcome.body, location);
      if (!matches(actual, expected, variables)) found.push(`body ${location || '(whole)'} is ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
    }
    return found;
  }
  const wanted = expect.error as Record<string, any>;
  if (outcome.ok) return [`expected a ${wanted.kind} error`];
  const error = outcome.error;
  switch (wanted.kind) {
    case 'connection':
      return error instanceof ConnectionError && !(error instanceof TimeoutError) ? [] : ['expected a ConnectionError'];
    case 'timeout':
      return error instanceof TimeoutError ? [] : ['expected a TimeoutError'];
    case 'problem': {
      if (!(error instanceof ProblemError)) return ['expected a ProblemError'];
      const found: string[] = [];
      if (error.code !== wanted.code) found.push(`code ${error.code}, expected ${wanted.code}`);
      if (error instanceof UnknownProblemError) found.push(`the client does not know the code ${error.code}`);
      if (error.status !== wanted.status) found.push(`status ${error.status}, expected ${wanted.status}`);
      for (const [field, expected] of Object.entries((wanted.fields ?? {}) as Record<string, Json>)) {
        const value = (error as unknown as Record<string, unknown>)[field];
        const actual = value === undefined ? pointer({}, '/missing') : (value as Json);
        if (!matches(actual, expected, variables)) found.push(`error.${field} is ${JSON.stringify(value)}, expected ${JSON.stringify(expected)}`);
      }
      return found;
    }
    default:
      return [`unknown error kind ${String(wanted.kind)}`];
  }
}

function conclude(context: Context, outcome: Outcome, step: Step): void {
  if (step.expect === undefined) return;
  const found = problems(outcome, step.expect, context.variables);
  if (found.length) throw new ScenarioFailure(`${found.join('; ')}: the ${String(step.call ?? step.await)} call ${describeOutcome(outcome)}`);
  if (!outcome.ok) return;
  for (const [name, location] of Object.entries((step.capture ?? {}) as Record<string, string>)) {
    const value = pointer(outcome.body, location);
    if (typeof value === 'symbol') throw new ScenarioFailure(`cannot capture ${name}: ${location} is not in ${describeOutcome(outcome)}`);
    context.variables.set(name, value);
  }
}

/** A path with references inside it (`/v1/sessions/$s.id`): each replaced by its captured value. */
function interpolate(text: string, variables: Map<string, Json>): string {
  return text.replace(/\$\$|\$[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*/g, (reference) =>
    reference === '$$' ? '$' : String(resolve(reference, variables)),
  );
}

async function control(proxyUrl: string, method: 'GET' | 'POST', body?: unknown): Promise<Json> {
  const answer = await fetch(`${proxyUrl}/__faults${method === 'GET' ? '/log' : ''}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
    signal: AbortSignal.timeout(CONTROL_TIMEOUT_MS),
  });
  if (!answer.ok) throw new ScenarioFailure(`the proxy's control API answered ${answer.status}: ${await answer.text()}`);
  return answer.status === 204 ? null : ((await answer.json()) as Json);
}

interface LogEntry {
  method: string;
  path: string;
  idempotencyKey: string | null;
  agenticHost: string | null;
  lastEventId: string | null;
  userAgent: string | null;
  atMs: number;
}

async function proxyLog(context: Context, step: Step): Promise<void> {
  const log = (await control(context.proxyUrl, 'GET')) as unknown as { requests: LogEntry[] };
  const path = interpolate(step.proxyLog.path, context.variables);
  const selected = log.requests.filter((entry) => entry.method === step.proxyLog.method && entry.path === path);
  const expect = step.expect as Record<string, any>;
  const found: string[] = [];
  if (expect.count !== undefined && selected.length !== expect.count) found.push(`${selected.length} requests, expected ${expect.count}`);
  if (expect.idempotencyKeys !== undefined) {
    if (selected.some((entry) => entry.idempotencyKey === null)) found.push('a request carried no Idempotency-Key');
    const keys = new Set(selected.map((entry) => entry.idempotencyKey));
    if (keys.size !== expect.idempotencyKeys) found.push(`${keys.size} distinct keys, expected ${expect.idempotencyKeys}`);
  }
  if (expect.minGapMs !== undefined) {
    for (let i = 1; i < selected.length; i++) {
      const gap = selected[i]!.atMs - selected[i - 1]!.atMs;
      if (gap < expect.minGapMs) found.push(`requests ${i} and ${i + 1} were ${gap.toFixed(0)} ms apart, expected at least ${expect.minGapMs}`);
    }
  }
  if (expect.agenticHosts !== undefined) {
    const hosts = selected.map((entry) => entry.agenticHost);
    if (JSON.stringify(hosts) !== JSON.stringify(expect.agenticHosts)) found.push(`Agentic-Host ${JSON.stringify(hosts)}, expected ${JSON.stringify(expect.agenticHosts)}`);
  }
  if (expect.lastEventIds !== undefined) {
    const ids = selected.map((entry) => entry.lastEventId);
    if (JSON.stringify(ids) !== JSON.stringify(expect.lastEventIds)) found.push(`Last-Event-ID ${JSON.stringify(ids)}, expected ${JSON.stringify(expect.lastEventIds)}`);
  }
  if (expect.userAgentPrefix !== undefined) {
    for (const entry of selected) {
      if (!(entry.userAgent ?? '').startsWith(expect.userAgentPrefix)) found.push(`User-Agent ${String(entry.userAgent)} does not start with ${expect.userAgentPrefix}`);
    }
  }
  if (found.length) throw new ScenarioFailure(`${step.proxyLog.method} ${path}: ${found.join('; ')}\n  log: ${JSON.stringify(selected)}`);
}

async function metric(context: Context, step: Step): Promise<void> {
  await metricStep(context.hostUrl, CONTROL_TIMEOUT_MS, step, context.variables);
}
