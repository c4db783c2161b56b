// A newcomer's app: the client installed as clients/typescript/README.md says (a packed
// tarball), checked with `tsc --strict`, run against a live host (AGENTIC_DRIVER_URL and
// AGENTIC_DRIVER_TOKEN, set by clients/newcomer/with_host.py). Every result is asserted; any
// mismatch exits non-zero.

import {
  AgenticDriverClient,
  handle,
  type RunStreamEvent,
  SessionBusyError,
  type SessionInfo,
  SessionNotFoundError,
  SessionRevisionConflictError,
} from '@agentic-driver/client';

function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`mismatch: ${what}`);
  console.log(`ok  ${what}`);
}

function env(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is not set`);
  return value;
}

const ECHO = { provider: 'echo', model: 'echo-1' } as const;

async function main(): Promise<void> {
  env('AGENTIC_DRIVER_URL');
  env('AGENTIC_DRIVER_TOKEN');
  const client = new AgenticDriverClient(); // both read from the environment, as the README's first example does

  // discovery
  const { data: discovery, response } = await client.getDiscovery().withResponse();
  check(response.status === 200, 'discovery answers 200 (withResponse)');
  check(discovery.providers.some((provider) => provider.id === 'echo' && provider.models.includes('echo-1')), 'discovery lists echo/echo-1');
  check(discovery.sessions.enabled, 'sessions are enabled');

  // create
  const created = await client.createSession({ ...ECHO, mode: 'history' });
  let session: SessionInfo = created.session;
  check(session.revision === 0, 'a new session is at revision 0');

  // two runs: the second proves the first is remembered
  const first = await client.run({ ...ECHO, input: 'My name is Ada.', session: handle(session) });
  check(first.output.text === 'echo: My name is Ada.', `first run answers "${first.output.text}"`);
  check(first.session !== undefined && first.session !== null && first.session.revision === 1, 'the first run moves the session to revision 1');
  session = first.session;
  const recall = await client.run({ ...ECHO, input: '!recall', session: handle(session) });
  check(recall.output.text === 'recall: 2 messages; last user: My name is Ada.', `!recall answers "${recall.output.text}"`);
  check(recall.session?.revision === 2, 'revision 2');
  session = recall.session;

  // a streamed run
  const stream = await client.streamRun({ ...ECHO, input: '!chunks 3\nHello', session: handle(session) });
  let text = '';
  const types: RunStreamEvent['type'][] = [];
  for await (const event of stream) {
    types.push(event.type);
    if (event.type === 'output.delta') text += event.text;
    else if (event.type === 'run.completed' && event.run.session) session = event.run.session;
  }
  check(types[0] === 'run.started' && types.at(-1) === 'run.completed', `the stream runs from run.started to run.completed (${types.join(', ')})`);
  check(types.filter((type) => type === 'output.delta').length >= 2, 'the stream delivered its text in several deltas');
  check(text === 'echo: Hello', `the deltas add up to "${text}"`);
  check(session.revision === 3, 'the streamed run moved the session to revision 3');

  // a fork at the second turn: a new session holding the first two turns, on the same host
  const forked = (await client.forkSession(session.id, { revision: 2 })).session;
  check(forked.id !== session.id && forked.revision === 2 && forked.messageCount === 4, 'the fork holds two turns at revision 2');
  const onFork = await client.run({ ...ECHO, input: '!recall', session: handle(forked) });
  check(onFork.output.text === 'recall: 4 messages; last user: !recall', `the fork carries on by itself ("${onFork.output.text}")`);

  // a stale revision: the typed conflict, with the current revision in one step
  try {
    await client.run({ ...ECHO, input: 'stale', session: { id: session.id, revision: 0 } });
    check(false, 'a stale revision is refused');
  } catch (error) {
    if (!(error instanceof SessionRevisionConflictError)) throw error;
    const current: number = error.currentRevision;
    check(current === 3, `a stale revision is a SessionRevisionConflictError with currentRevision ${current}`);
  }

  // a busy session: the typed busy error, then the busy helper
  const slow = client.run({ ...ECHO, input: '!sleep 1500\nslow', session: handle(session) });
  for (const started = Date.now(); ; ) {
    if ((await client.readSession(session.id)).session.status === 'running') break;
    if (Date.now() - started > 5_000) throw new Error('the slow turn never started');
    await new Promise((done) => setTimeout(done, 20));
  }
  let busy: SessionBusyError | undefined;
  try {
    await client.run({ ...ECHO, input: 'too soon', session: handle(session) });
  } catch (error) {
    if (!(error instanceof SessionBusyError)) throw error;
    busy = error;
  }
  check(busy !== undefined && busy.activeRunId.startsWith('run_'), `a busy session is a SessionBusyError naming ${busy?.activeRunId}`);
  const idle = await client.waitUntilIdle(session.id, { busy });
  check(idle.session.status === 'ready' && idle.session.revision === 4, `waitUntilIdle returns the session ready at revision ${idle.session.revision}`);
  const slowResult = await slow;
  check(slowResult.output.text === 'echo: slow' && slowResult.session?.revision === 4, 'the slow turn completed once, at revision 4');

  // read
  const read = await client.readSession(session.id);
  check(read.session.revision === 4 && read.turns.length === 4 && read.history.length === 8, `read: revision 4, 4 turns, ${read.history.length} messages`);
  check(read.history[0]?.content === 'My name is Ada.', 'the history starts with the first input');

  // delete
  const deleted = await client.deleteSession(session.id).withResponse();
  check(deleted.response.status === 204, 'delete answers 204');
  try {
    await client.readSession(session.id);
    check(false, 'a deleted session is gone');
  } catch (error) {
    if (!(error instanceof SessionNotFoundError)) throw error;
    check(error.status === 404, 'a deleted session reads as SessionNotFoundError (404)');
  }
  console.log('newcomer-typescript: all checks passed');
}

main().catch((error: unknown) => {
  console.error('newcomer-typescript FAILED:', error);
  process.exit(1);
});
