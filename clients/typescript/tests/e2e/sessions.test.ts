// End to end against a real host process: sessions, the four session error codes by type,
// forks, streamed runs and an application-function round trip.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import {
  AgenticDriverClient,
  handle,
  IdempotencyKeyReusedError,
  MisdirectedRequestError,
  ProblemError,
  type RunStreamEvent,
  SessionAccountRequiredError,
  SessionBusyError,
  type SessionInfo,
  SessionInterruptedError,
  SessionNotFoundError,
  SessionRevisionConflictError,
  ValidationError,
} from '../../src/index.js';
import { type Host, standardHostConfig, startHost, TOKENS } from '../harness.js';
import { rejection } from '../rejection.js';

const ECHO = { provider: 'echo', model: 'echo-1' } as const;

let host: Host;
let client: AgenticDriverClient;

before(async () => {
  host = await startHost({ config: standardHostConfig() });
  client = host.client(TOKENS.full);
});

after(async () => {
  await host?.stop();
});

async function newSession(): Promise<SessionInfo> {
  const { session } = await client.createSession({ ...ECHO, mode: 'history' });
  return session;
}

/** Polls the session (bounded) until it has the status. */
async function waitForStatus(sessionId: string, status: SessionInfo['status']): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if ((await client.readSession(sessionId)).session.status === status) return;
    await new Promise((done) => setTimeout(done, 10));
  }
  assert.fail(`session ${sessionId} never became ${status}`);
}

describe('a session, end to end', () => {
  it('creates, runs twice (history carries over), reads and deletes', async () => {
    const health = await host.client().getHealth();
    assert.deepEqual(health, { status: 'ok' });

    let session = await newSession();
    assert.equal(session.revision, 0);
    assert.equal(session.status, 'ready');

    const first = await client.run({ ...ECHO, input: 'My name is Ada.', session: handle(session) });
    assert.equal(first.status, 'completed');
    assert.equal(first.output.text, 'echo: My name is Ada.');
    assert.ok(first.session);
    session = first.session;
    assert.equal(session.revision, 1);

    const second = await client.run({ ...ECHO, input: '!recall', session: handle(session) });
    assert.equal(second.output.text, 'recall: 2 messages; last user: My name is Ada.');
    assert.equal(second.session?.revision, 2);

    const read = await client.readSession(session.id);
    assert.equal(read.session.revision, 2);
    assert.deepEqual(
      read.history.map((message) => [message.role, message.content]),
      [
        ['user', 'My name is Ada.'],
        ['assistant', 'echo: My name is Ada.'],
        ['user', '!recall'],
        ['assistant', 'recall: 2 messages; last user: My name is Ada.'],
      ],
    );
    assert.equal(read.turns.length, 2);

    await client.deleteSession(session.id);
    const gone = await rejection(client.readSession(session.id));
    assert.ok(gone instanceof ProblemError && gone.code === 'SESSION_NOT_FOUND', String(gone));
    assert.equal((gone as ProblemError).status, 404);
  });
});

describe('session errors, distinguished by type', () => {
  it('SESSION_REVISION_CONFLICT carries the current revision', async () => {
    const session = await newSession();
    await client.run({ ...ECHO, input: 'one', session: handle(session) });
    const error = await rejection(client.run({ ...ECHO, input: 'stale', session: handle(session) }));
    assert.ok(error instanceof SessionRevisionConflictError, String(error));
    assert.equal(error.status, 409);
    assert.equal(error.currentRevision, 1);
    assert.ok(!(error instanceof SessionBusyError));
  });

  it('SESSION_BUSY names the active run while a turn is in flight', async () => {
    const session = await newSession();
    const slow = client.run({ ...ECHO, input: '!sleep 1500\nslow', session: handle(session) });
    await waitForStatus(session.id, 'running');
    const error = await rejection(client.run({ ...ECHO, input: 'again', session: handle(session) }));
    assert.ok(error instanceof SessionBusyError, String(error));
    assert.match(error.activeRunId, /^run_/);
    assert.ok(error.retryAfterSeconds !== undefined && error.retryAfterSeconds >= 0);
    const finished = await slow;
    assert.equal(finished.session?.revision, 1);
  });

  it('SESSION_INTERRUPTED after a provider failure', async () => {
    const session = await newSession();
    const failure = await rejection(client.run({ ...ECHO, input: '!fail', session: handle(session) }));
    assert.ok(failure instanceof ProblemError && failure.code === 'PROVIDER_ERROR', String(failure));
    const error = await rejection(client.run({ ...ECHO, input: 'after', session: handle(session) }));
    assert.ok(error instanceof SessionInterruptedError, String(error));
    const read = await client.readSession(session.id);
    assert.equal(read.session.status, 'interrupted');
    assert.equal(read.interruptedTurn?.reason, 'failed');
  });

  it('SESSION_ACCOUNT_REQUIRED on a provider instance without an account binding', async () => {
    const error = await rejection(client.createSession({ provider: 'echo-unbound', model: 'echo-1', mode: 'history' }));
    assert.ok(error instanceof SessionAccountRequiredError, String(error));
    assert.equal(error.status, 409);
    // The same instance still serves stateless runs.
    const stateless = await client.run({ provider: 'echo-unbound', model: 'echo-1', input: 'hi' });
    assert.equal(stateless.output.text, 'echo: hi');
  });

  it('the four codes are four different classes', async () => {
    const classes = [SessionRevisionConflictError, SessionBusyError, SessionInterruptedError, SessionAccountRequiredError];
    assert.equal(new Set(classes).size, 4);
  });
});

describe('forks', () => {
  /** A session with three turns ("one", "two", "three"), at revision 3. */
  async function threeTurns(): Promise<SessionInfo> {
    let session = await newSession();
    for (const input of ['one', 'two', 'three']) session = (await client.run({ ...ECHO, input, session: handle(session) })).session;
    return session;
  }

  it('at the current revision and at a turn boundary; the fork and the source then continue apart', async () => {
    let source = await threeTurns();
    const before = await client.readSession(source.id);
    assert.deepEqual([before.session.revision, before.turns.length], [3, 3]);

    // No body: the current revision. A new session on the same host, its accounting at zero.
    const { data: current, response } = await client.forkSession(source.id).withResponse();
    assert.equal(response.status, 201);
    const now = current.session;
    assert.notEqual(now.id, source.id);
    assert.ok(now.id.startsWith(`ses_${source.hostId}.`), now.id);
    assert.equal(now.hostId, source.hostId);
    assert.deepEqual(
      [now.revision, now.status, now.provider, now.model, now.mode, now.messageCount, now.runCount, now.usage.inputTokens],
      [3, 'ready', source.provider, source.model, source.mode, before.session.messageCount, 0, 0],
    );

    // At a turn boundary: the state the first turn produced, with that turn.
    const { session: atOne } = await client.forkSession(source.id, { revision: 1 });
    assert.deepEqual([atOne.revision, atOne.messageCount, atOne.runCount], [1, 2, 0]);
    const forked = await client.readSession(atOne.id);
    assert.deepEqual(forked.history, before.history.slice(0, 2));
    assert.deepEqual(forked.turns, before.turns.slice(0, 1));

    // At 0: the imported history only (none here).
    const { session: atZero } = await client.forkSession(source.id, { revision: 0 });
    assert.deepEqual([atZero.revision, atZero.messageCount, (await client.readSession(atZero.id)).turns], [0, 0, []]);

    // The fork goes on by itself; the source is unchanged by it, and goes on by itself too.
    const recall = await client.run({ ...ECHO, input: '!recall', session: handle(atOne) });
    assert.equal(recall.output.text, 'recall: 2 messages; last user: one');
    assert.equal(recall.session?.revision, 2);
    assert.deepEqual(await client.readSession(source.id), before);
    const onward = await client.run({ ...ECHO, input: '!recall', session: handle(source) });
    assert.equal(onward.output.text, 'recall: 6 messages; last user: three');
    source = onward.session;
    assert.equal(source.revision, 4);
    assert.equal((await client.readSession(atOne.id)).session.revision, 2);
    assert.equal((await client.readSession(now.id)).session.revision, 3);

    for (const id of [now.id, atOne.id, atZero.id]) await client.deleteSession(id);
    assert.equal((await client.readSession(source.id)).session.revision, 4); // deleting the forks leaves the source
  });

  it('a boundary the session does not hold is SessionRevisionConflictError with currentRevision', async () => {
    const source = await threeTurns();
    const ahead = await rejection(client.forkSession(source.id, { revision: 9 }));
    assert.ok(ahead instanceof SessionRevisionConflictError, String(ahead));
    assert.deepEqual([ahead.status, ahead.currentRevision], [409, 3]);
    // Truncation drops revisions 2 and 3: no longer states the session can be forked at.
    const kept = await client.truncateSession(source.id, { revision: 3, keepTurns: 1 });
    const dropped = await rejection(client.forkSession(source.id, { revision: 2 }));
    assert.ok(dropped instanceof SessionRevisionConflictError, String(dropped));
    assert.equal(dropped.currentRevision, kept.session.revision);
    assert.equal((await client.forkSession(source.id, { revision: 1 })).session.revision, 1);
    const negative = await rejection(client.forkSession(source.id, { revision: -1 }));
    assert.ok(negative instanceof ValidationError && negative.status === 422, String(negative));
    const missing = await rejection(client.forkSession(`ses_${source.hostId}.AAAAAAAAAAAAAAAAAAAAAA`));
    assert.ok(missing instanceof SessionNotFoundError, String(missing));
  });

  it('one Idempotency-Key, one fork; the same key with another body is IdempotencyKeyReusedError', async () => {
    const source = await threeTurns();
    const key = `ts-e2e-fork-${source.id}`;
    const first = await client.forkSession(source.id, {}, { idempotencyKey: key });
    const again = await client.forkSession(source.id, {}, { idempotencyKey: key });
    assert.equal(again.session.id, first.session.id);
    const other = await client.forkSession(source.id);
    assert.notEqual(other.session.id, first.session.id); // a call without a key gets a fresh one
    const reused = await rejection(client.forkSession(source.id, { revision: 0 }, { idempotencyKey: key }));
    assert.ok(reused instanceof IdempotencyKeyReusedError, String(reused));
  });

  it('a source with an active turn is SessionBusyError, not retried; once idle it forks', async () => {
    const lines: string[] = [];
    const logged = new AgenticDriverClient({ baseUrl: host.baseUrl, token: TOKENS.full, logger: { debug: (line) => lines.push(line) } });
    const session = await newSession();
    const slow = client.run({ ...ECHO, input: '!sleep 1500\nslow', session: handle(session) });
    await waitForStatus(session.id, 'running');
    const busy = await rejection(logged.forkSession(session.id));
    assert.ok(busy instanceof SessionBusyError, String(busy));
    assert.equal(busy.status, 409);
    assert.match(busy.activeRunId, /^run_/);
    assert.equal(lines.filter((line) => line.includes(`/v1/sessions/${session.id}/fork`)).length, 1, lines.join('\n'));
    const idle = await client.waitUntilIdle(session.id, { busy });
    assert.equal(idle.session.revision, 1);
    const { session: fork } = await client.forkSession(session.id);
    assert.deepEqual([fork.revision, fork.messageCount], [1, 2]);
    assert.equal((await slow).session?.revision, 1);
  });
});

describe('streamed runs', () => {
  it('yields three deltas, then run.completed with the next revision', async () => {
    const session = await newSession();
    const stream = await client.streamRun({ ...ECHO, input: '!chunks 3\nTell me a story', session: handle(session) });
    const events: RunStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    assert.deepEqual(
      events.map((event) => event.type),
      ['run.started', 'output.delta', 'output.delta', 'output.delta', 'run.completed'],
    );
    const deltas = events.flatMap((event) => (event.type === 'output.delta' ? [event.text] : []));
    const last = events.at(-1);
    assert.ok(last?.type === 'run.completed');
    assert.equal(deltas.join(''), last.run.output.text);
    assert.equal(last.run.output.text, 'echo: Tell me a story');
    assert.equal(last.run.session?.revision, 1);
  });

  it('a refusal before the stream starts rejects with the typed error', async () => {
    const session = await newSession();
    await client.run({ ...ECHO, input: 'one', session: handle(session) });
    const error = await rejection(client.streamRun({ ...ECHO, input: 'stale', session: handle(session) }));
    assert.ok(error instanceof SessionRevisionConflictError, String(error));
  });
});

describe('application functions', () => {
  const tools = [
    { name: 'get_weather', description: 'Weather in a city', parameters: { type: 'object', properties: { x: { type: 'integer' } } } },
  ];

  it('requires_action, submit the results, completed', async () => {
    let session = await newSession();
    const waiting = await client.run({ ...ECHO, input: '!call get_weather {"x":1}', tools, session: handle(session) });
    assert.equal(waiting.status, 'requires_action');
    assert.ok(waiting.requiredAction?.type === 'function_calls');
    const [call] = waiting.requiredAction.calls;
    assert.ok(call);
    assert.equal(call.name, 'get_weather');
    assert.deepEqual(call.arguments, { x: 1 });

    const busy = await rejection(client.run({ ...ECHO, input: 'meanwhile', session: handle(session) }));
    assert.ok(busy instanceof SessionBusyError, String(busy));

    const done = await client.submitRunActions(waiting.id, { functionResults: [{ callId: call.callId, output: 'sunny' }] });
    assert.equal(done.status, 'completed');
    assert.match(done.output.text, /get_weather -> sunny$/);
    assert.ok(done.session);
    session = done.session;
    assert.equal(session.revision, 1);
  });

  it('streams the continuation with streamRunActions', async () => {
    const session = await newSession();
    const stream = await client.streamRun({ ...ECHO, input: '!call get_weather {"x":2}', tools, session: handle(session) });
    const waiting = await stream.finalEvent();
    assert.equal(waiting.type, 'run.requires_action');
    const action = waiting.run.requiredAction;
    assert.ok(action?.type === 'function_calls');
    const callId = action.calls[0]?.callId ?? '';

    const rest = await client.streamRunActions(waiting.run.id, { functionResults: [{ callId, output: 'rain' }] });
    const final = await rest.finalEvent();
    assert.equal(final.type, 'run.completed');
    assert.match(final.run.output.text, /get_weather -> rain$/);
    assert.equal(final.run.session?.revision, 1);
  });
});

describe('a run for another host\'s session', () => {
  // Node's fetch resends a 421 by itself, and that resend of a request with a body fails now and
  // then (nodejs/help#4345): 41 of these 300 failed so with a fetch option (no client dispatcher).
  it('is MisdirectedRequestError every time, never a failed fetch (300 runs, no retries)', async () => {
    const strict = new AgenticDriverClient({ baseUrl: host.baseUrl, token: TOKENS.full, maxRetries: 0 });
    const elsewhere = { id: 'ses_elsewhere.0000000000000000000000', revision: 0 };
    const outcomes = new Map<string, number>();
    for (let attempt = 0; attempt < 300; attempt++) {
      const error = await rejection(strict.run({ ...ECHO, input: 'hi', session: elsewhere }));
      const what = error instanceof MisdirectedRequestError ? `421 ${error.ownerHostId}` : String(error);
      outcomes.set(what, (outcomes.get(what) ?? 0) + 1);
    }
    assert.deepEqual([...outcomes], [['421 elsewhere', 300]]);
  });
});
