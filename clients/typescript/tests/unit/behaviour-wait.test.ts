// clients/BEHAVIOUR.md: the busy helper, waitUntilIdle, over the fake fetch of behaviour-helpers.ts.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { AbortError, type ReadSessionResponse, SessionBusyError, TimeoutError } from '../../src/index.js';
import { nextIdleWaitMs } from '../../src/client.js';
import { rejection } from '../rejection.js';
import { clientWith, ok, scripted } from './behaviour-helpers.js';

describe('waitUntilIdle', () => {
  const read = (status: string, revision: number): ReadSessionResponse =>
    ({ session: { id: 'ses_1', revision, status }, instructions: null, history: [], turns: [] }) as unknown as ReadSessionResponse;

  it('reads until the session is no longer running and returns that read', async () => {
    const { fetch, seen } = scripted(ok(read('running', 0)), ok(read('running', 0)), ok(read('ready', 1)));
    const idle = await clientWith(fetch).waitUntilIdle('ses_1');
    assert.equal(idle.session.status, 'ready');
    assert.equal(idle.session.revision, 1);
    assert.equal(seen.length, 3);
    assert.ok(seen.every((request) => request.method === 'GET' && new URL(request.url).pathname === '/v1/sessions/ses_1'));
  });

  it('waits first for the busy error\'s Retry-After', async () => {
    const { fetch } = scripted(ok(read('ready', 1)));
    const busy = new SessionBusyError(409, { type: 't', title: 't', status: 409, code: 'SESSION_BUSY', detail: 'd', activeRunId: 'run_1', retryAfterSeconds: 0.3 });
    const started = Date.now();
    await clientWith(fetch).waitUntilIdle('ses_1', { busy });
    assert.ok(Date.now() - started >= 290, `waited ${Date.now() - started} ms`);
  });

  it('raises TimeoutError("idle-wait") past its bound', async () => {
    const { fetch } = scripted(ok(read('running', 0)));
    const error = await rejection(clientWith(fetch).waitUntilIdle('ses_1', { timeout: 300 }));
    assert.ok(error instanceof TimeoutError && error.kind === 'idle-wait' && error.timeoutMs === 300, String(error));
  });

  it('honours the caller\'s signal', async () => {
    const { fetch } = scripted(ok(read('running', 0)));
    const error = await rejection(clientWith(fetch).waitUntilIdle('ses_1', { signal: AbortSignal.timeout(150) }));
    assert.ok(error instanceof AbortError, String(error));
  });

  it('makes each wait twice the one before (a wait under 0.1 s counting as 0.1 s), at most 1 s', () => {
    const schedules = [
      [100, 200, 400, 800, 1000, 1000], // no busy error
      [0, 200, 400], // Retry-After: 0
      [1000, 1000, 1000], // Retry-After: 1
      [3000, 1000], // Retry-After: 3
    ];
    for (const schedule of schedules) {
      for (let i = 1; i < schedule.length; i++) assert.equal(nextIdleWaitMs(schedule[i - 1]!), schedule[i], String(schedule));
    }
  });
});
