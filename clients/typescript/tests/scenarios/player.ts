/**
 * The TypeScript player of contract-tests/scenarios/*.json (format: contract-tests/scenarios/README.md).
 *
 * Every request goes through the client: plain operations through the generated SDK function
 * named by the step's operationId (with `client: driver.raw`), streamed ones through the
 * hand-written `streamRun`/`streamRunActions`. A fetch wrapper keeps a copy of each raw answer,
 * so expectations are judged on the wire (status, headers, JSON body; a stream's body is the
 * array of its events' data). Each answer is also checked as the client understood it: a
 * problem becomes the typed error of its wire `code`, a stream has no unknown event types.
 * Full schema validation of answers is the Python runner's job (schemathesis).
 */

import { AgenticDriverClient, errorFromResponse, generated, ProblemError, type RunStreamEvent } from '../../src/index.js';
import { nodeDispatcher, restored421 } from '../../src/transport.js';
import {
  type Found,
  type Json,
  loadScenarioFiles,
  matches,
  metricStep,
  MISSING,
  playSteps,
  pointer,
  resolve,
  ScenarioFailure,
  type Step,
} from '../scenario-values.js';

export const REQUEST_TIMEOUT_MS = 20_000;

/** Token name -> secret; the hosts get them as CONTRACT_TOKEN_<NAME>. */
export const TOKENS: Record<string, string> = {
  full: 'contract-ts-full-token-00001',
  'no-grants': 'contract-ts-no-grants-token-1',
  other: 'contract-ts-other-subject-token',
};
const INVALID_TOKEN = 'contract-token-no-host-knows-0';

export function tokenEnvironment(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(TOKENS).map(([name, secret]) => [`CONTRACT_TOKEN_${name.toUpperCase().replace(/-/g, '_')}`, secret]),
  );
}


export interface Scenario {
  name: string;
  host: string;
  isolated: boolean;
  data: Record<string, any>;
}

export { ScenarioFailure };

/** Loads and checks one scenario file against scenarios/schema.json. */
export function loadScenarios(directory: string, files: string[]): Scenario[] {
  return loadScenarioFiles(directory, files, 'scenarios/schema.json').map((data) => (
    { name: data.name, host: data.host ?? 'main', isolated: data.isolated ?? false, data }
  ));
}

// -- one request through the client ------------------------------------------------------------------------------

const STREAMING = new Set(['streamRun', 'streamRunActions', 'streamRunEvents']);

/** One request and what came back. */
export interface Exchange {
  operationId: string;
  status: number;
  headers: Headers;
  /** The body as JSON; a stream's is the array of its events' data. */
  json: Json | undefined;
  /** What the client's reading of the answer got wrong (empty when it understood it). */
  parseProblems: string[];
  describe: string;
}

interface CallInput {
  baseUrl: string;
  operationId: string;
  auth: string;
  path: Record<string, Json>;
  headers: Record<string, Json>;
  body: Json | undefined;
  transport: Record<string, any>;
}

function clientFor(input: CallInput, seen: Response[]): AgenticDriverClient {
  const wire: typeof fetch = async (resource, init) => {
    let request = new Request(resource, init);
    if (input.transport.contentType !== undefined) {
      const headers = new Headers(request.headers);
      headers.set('Content-Type', input.transport.contentType);
      request = new Request(request, { headers });
    }
    // The client's own dispatcher, as without a fetch option: Node's fetch would resend a 421 by
    // itself, and that resend of a body fails now and then (dispatcher.ts, keeping421).
    const dispatcher = await nodeDispatcher(REQUEST_TIMEOUT_MS);
    const response = restored421(await fetch(request, { dispatcher } as RequestInit));
    seen.push(STREAMING.has(input.operationId) && response.ok ? response : response.clone());
    return response;
  };
  const token = input.auth === 'none' ? undefined : input.auth === 'invalid' ? INVALID_TOKEN : TOKENS[input.auth];
  if (input.auth !== 'none' && token === undefined) throw new ScenarioFailure(`unknown credentials ${input.auth}`);
  // One request per step: the contract scenarios check the wire, so the client retries nothing.
  return new AgenticDriverClient({ baseUrl: input.baseUrl, ...(token === undefined ? {} : { token }), fetch: wire, maxRetries: 0 });
}

function describe(input: CallInput, status: number, text: string): string {
  const body = input.body === undefined ? '' : JSON.stringify(input.body).slice(0, 400);
  return `${input.operationId} ${JSON.stringify(input.path)} ${body}\n  -> ${status} ${text.slice(0, 800)}`;
}

function parseJson(text: string): Json | undefined {
  try {
    return text === '' ? null : (JSON.parse(text) as Json);
  } catch {
    return undefined;
  }
}

/** The problem check: a problem answer became the typed error of the code on the wire. */
function problemCheck(status: number, wire: Json | undefined, error: unknown): string[] {
  const wireCode = typeof wire === 'object' && wire !== null && !Array.isArray(wire) ? wire.code : undefined;
  if (!(error instanceof ProblemError)) return [`the client did not read the ${status} answer as a problem: ${String(error)}`];
  if (error.code !== wireCode) return [`the client read code ${error.code}, the wire says ${String(wireCode)}`];
  if (error.constructor.name === 'UnknownProblemError') return [`the client does not know the code ${error.code}`];
  return [];
}

export async function call(input: CallInput): Promise<Exchange> {
  const seen: Response[] = [];
  const driver = clientFor(input, seen);
  const signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const idempotencyKey = input.headers['Idempotency-Key'];
  const options = { signal, ...(typeof idempotencyKey === 'string' ? { idempotencyKey } : {}) };
  if (STREAMING.has(input.operationId)) return callStreaming(input, driver, seen, options);

  const operation = (generated as Record<string, unknown>)[input.operationId];
  if (typeof operation !== 'function') throw new ScenarioFailure(`the generated client has no operation ${input.operationId}`);
  const answer = await operation({
    client: driver.raw,
    ...(Object.keys(input.path).length ? { path: input.path } : {}),
    ...(input.body !== undefined ? { body: input.body } : {}),
    headers: input.headers,
    signal,
  });
  const response = seen.at(-1);
  if (response === undefined) throw new ScenarioFailure(`the client sent no request (${String(answer.error)})`);
  const text = await response.text();
  const json = parseJson(text);
  const parseProblems = response.ok
    ? answer.error === undefined
      ? []
      : [`the client failed on a ${response.status} answer: ${String(answer.error)}`]
    : problemCheck(response.status, json, errorFromResponse(response.status, answer.error, response.headers));
  return { operationId: input.operationId, status: response.status, headers: response.headers, json, parseProblems, describe: describe(input, response.status, text) };
}

async function callStreaming(
  input: CallInput,
  driver: AgenticDriverClient,
  seen: Response[],
  options: { signal: AbortSignal; idempotencyKey?: string },
): Promise<Exchange> {
  const body = input.body as never;
  let stream;
  try {
    stream = await openStream(input, driver, body, options);
  } catch (error) {
    const response = seen.at(-1);
    if (response === undefined) throw error;
    const text = await response.text();
    const json = parseJson(text);
    return {
      operationId: input.operationId,
      status: response.status,
      headers: response.headers,
      json,
      parseProblems: problemCheck(response.status, json, error),
      describe: describe(input, response.status, text),
    };
  }
  const events: Json[] = [];
  const unknown: string[] = [];
  const limit: number | undefined = input.transport.disconnectAfterEvents;
  const parseProblems: string[] = [];
  try {
    for await (const event of stream as AsyncIterable<RunStreamEvent>) {
      if (event.type === 'unknown') unknown.push(event.eventType);
      events.push((event.type === 'unknown' ? event.data : event) as Json);
      if (limit !== undefined && events.length >= limit) break; // leaving the loop hangs up
    }
  } catch (error) {
    parseProblems.push(`reading the stream failed: ${String(error)}`);
  }
  if (unknown.length) parseProblems.push(`the client layer does not know the event types ${unknown.join(', ')}`);
  const text = JSON.stringify(events);
  return {
    operationId: input.operationId,
    status: stream.response.status,
    headers: stream.response.headers,
    json: events,
    parseProblems,
    describe: describe(input, stream.response.status, `(events) ${text}`),
  };
}

/** The hand-written method of a streamed operation (`streamRunEvents`' `Last-Event-ID` is its `lastEventId`). */
function openStream(input: CallInput, driver: AgenticDriverClient, body: never, options: { signal: AbortSignal; idempotencyKey?: string }) {
  const runId = String(input.path.runId);
  switch (input.operationId) {
    case 'streamRun':
      return driver.streamRun(body, options);
    case 'streamRunActions':
      return driver.streamRunActions(runId, body, options);
    default: {
      const lastEventId = input.headers['Last-Event-ID'];
      return driver.streamRunEvents(runId, { signal: options.signal, ...(lastEventId === undefined ? {} : { lastEventId: String(lastEventId) }) });
    }
  }
}

// -- expectations -------------------------------------------------------------------------------------------------

function problemCode(exchange: Exchange): string | undefined {
  const json = exchange.json;
  if (exchange.status < 400 || typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  return typeof json.code === 'string' ? json.code : undefined;
}

export function checkExpect(exchange: Exchange, expect: Record<string, any>, variables: Map<string, Json>): string[] {
  const problems: string[] = [];
  if (exchange.status !== expect.status) problems.push(`status ${exchange.status}, expected ${expect.status}`);
  if (expect.code !== undefined) {
    const wanted: string[] = Array.isArray(expect.code) ? expect.code : [expect.code];
    const code = problemCode(exchange);
    if (code === undefined || !wanted.includes(code)) problems.push(`code ${code}, expected ${wanted.join(' or ')}`);
  }
  for (const [location, expected] of Object.entries((expect.body ?? {}) as Record<string, Json>)) {
    const actual = pointer(exchange.json, location);
    if (!matches(actual, expected, variables)) {
      const shown = actual === MISSING ? '(missing)' : JSON.stringify(actual).slice(0, 300);
      problems.push(`body ${location || '(whole)'} is ${shown}, expected ${JSON.stringify(expected).slice(0, 300)}`);
    }
  }
  for (const [name, expected] of Object.entries((expect.headers ?? {}) as Record<string, Json>)) {
    const value = exchange.headers.get(name);
    const actual: Found = value === null ? MISSING : value;
    if (!matches(actual, expected, variables)) problems.push(`header ${name} is ${value ?? '(missing)'}, expected ${JSON.stringify(expected)}`);
  }
  return problems;
}

// -- playing --------------------------------------------------------------------------------------------------------

interface Context {
  scenario: Scenario;
  baseUrl: string;
  variables: Map<string, Json>;
  background: Map<string, Promise<Exchange>>;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

export async function play(scenario: Scenario, baseUrl: string): Promise<void> {
  const repeat = Number(scenario.data.repeat ?? 1);
  for (let iteration = 1; iteration <= repeat; iteration++) {
    const context: Context = { scenario, baseUrl, variables: new Map(), background: new Map() };
    try {
      await playSteps(`${scenario.name}, iteration ${iteration}`, scenario.data.steps as Step[], (step) => runStep(context, step));
    } finally {
      // A failed step may leave background requests running: let them finish first.
      await Promise.allSettled(context.background.values());
    }
  }
}

async function runStep(context: Context, step: Step): Promise<void> {
  if ('call' in step) return request(context, step);
  if ('await' in step) {
    const pending = context.background.get(step.await);
    if (pending === undefined) throw new ScenarioFailure(`no background step named ${step.await} is pending`);
    context.background.delete(step.await);
    return conclude(context, await pending, step);
  }
  if ('parallel' in step) return parallel(context, step);
  if ('metric' in step) return metric(context, step);
  throw new ScenarioFailure(`unknown step ${JSON.stringify(step)}`);
}

async function send(context: Context, step: Step): Promise<Exchange> {
  const exchange = await call({
    baseUrl: context.baseUrl,
    operationId: step.call,
    auth: step.as ?? context.scenario.data.as ?? 'full',
    path: resolve(step.path ?? {}, context.variables) as Record<string, Json>,
    headers: resolve(step.headers ?? {}, context.variables) as Record<string, Json>,
    body: 'body' in step ? resolve(step.body, context.variables) : undefined,
    transport: step.transport ?? {},
  });
  if (exchange.parseProblems.length) throw new ScenarioFailure(`${exchange.parseProblems.join('; ')}\n${exchange.describe}`);
  return exchange;
}

async function request(context: Context, step: Step): Promise<void> {
  if ('background' in step) {
    const pending = send(context, step);
    pending.catch(() => undefined); // judged by the await step
    context.background.set(step.background, pending);
    return;
  }
  if ('until' in step) {
    const deadline = Date.now() + step.until.timeoutMs;
    let exchange: Exchange;
    for (;;) {
      exchange = await send(context, step);
      if (checkExpect(exchange, step.expect, context.variables).length === 0 || Date.now() > deadline) break;
      await sleep(step.until.intervalMs ?? 20);
    }
    return conclude(context, exchange, step);
  }
  const times = Number(resolve(step.times ?? 1, context.variables));
  for (let i = 0; i < times; i++) conclude(context, await send(context, step), step);
}

function conclude(context: Context, exchange: Exchange, step: Step): void {
  const problems = checkExpect(exchange, step.expect, context.variables);
  if (problems.length) throw new ScenarioFailure(`${problems.join('; ')}\n${exchange.describe}`);
  for (const [name, location] of Object.entries((step.capture ?? {}) as Record<string, string>)) {
    const value = pointer(exchange.json, location);
    if (value === MISSING) throw new ScenarioFailure(`cannot capture ${name}: ${location} is not in the answer\n${exchange.describe}`);
    context.variables.set(name, value);
  }
}

function permutations(n: number): number[][] {
  if (n === 0) return [[]];
  return permutations(n - 1).flatMap((rest) => Array.from({ length: n }, (_, i) => [...rest.slice(0, i), n - 1, ...rest.slice(i)]));
}

async function parallel(context: Context, step: Step): Promise<void> {
  // Each request has its own client; all are started in the same tick.
  const exchanges = await Promise.all((step.parallel as Step[]).map((item) => send(context, item)));
  const outcomes = step.outcomes as Record<string, any>[];
  for (const order of permutations(exchanges.length)) {
    if (order.every((i, j) => checkExpect(exchanges[i]!, outcomes[j]!, context.variables).length === 0)) return;
  }
  const shown = exchanges.map((exchange) => exchange.describe).join('\n');
  throw new ScenarioFailure(`the concurrent answers do not match the outcomes ${JSON.stringify(outcomes)}:\n${shown}`);
}

async function metric(context: Context, step: Step): Promise<void> {
  await metricStep(context.baseUrl, REQUEST_TIMEOUT_MS, step, context.variables);
}
