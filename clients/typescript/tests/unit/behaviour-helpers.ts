// What the behaviour tests (behaviour*.test.ts) share: a fake fetch answering from a script, where
// the wire does not matter, and a local node:http server on 127.0.0.1 where it does (timeouts,
// broken connections). Not a test file itself.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { AgenticDriverClient } from '../../src/index.js';

export const TOKEN = 'unit-token-0123456789';
export const RUN = { provider: 'echo', model: 'echo-1', input: 'x' };
export const RESULT = {
  id: 'run_1',
  status: 'completed',
  output: { text: 'echo: x' },
  usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  cost: null,
  retries: { count: 0, inputTokens: 0, outputTokens: 0, cost: null },
  servedModel: 'echo-1',
};

export function problem(status: number, code: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Response {
  const body = { type: `urn:agentic-driver:problem:${code}`, title: code, status, code, detail: code.toLowerCase(), ...extra };
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/problem+json', ...headers } });
}

export const ok = (body: unknown = RESULT, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json', ...headers } });

/** A fake fetch answering from a script (the last entry repeats); records every request. */
export function scripted(...answers: Array<Response | Error | (() => Response | Error)>) {
  const seen: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push(new Request(input, init));
    const next = answers[Math.min(seen.length - 1, answers.length - 1)]!;
    const answer = typeof next === 'function' ? next() : next;
    if (answer instanceof Error) throw answer;
    return answer.clone();
  };
  return { fetch: fetch as typeof globalThis.fetch, seen };
}

export function clientWith(fetch: typeof globalThis.fetch, extra: Partial<ConstructorParameters<typeof AgenticDriverClient>[0]> = {}) {
  return new AgenticDriverClient({ baseUrl: 'http://host.test', token: TOKEN, fetch, ...extra });
}

/** A local server; `handle` decides each answer. */
export async function serve(handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<{ url: string; server: Server; hits: () => number }> {
  let hits = 0;
  const server = createServer((request, response) => {
    hits++;
    handle(request, response);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server, hits: () => hits };
}

export function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((done) => server.close(() => done()));
}
