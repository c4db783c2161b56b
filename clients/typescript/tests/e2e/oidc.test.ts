// A real OpenID provider (oidc-provider, server/tests/idp, started by its Python harness: `python -m
// idp.serve DIR`) issues 2-second client-credentials tokens; a host trusts it (auth.jwt). A caching
// token provider hands the client its token until the host refuses it (expired), then gets a new one:
// the client's one resend on invalid_token (../BEHAVIOUR.md, "Tokens") carries the turn across.

import assert from 'node:assert/strict';
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';

import { AgenticDriverClient, type TokenProvider } from '../../src/index.js';
import { nodeDispatcher } from '../../src/transport.js';
import { type Host, repoRoot, startHost } from '../harness.js';

const ECHO = { provider: 'echo', model: 'echo-1' } as const;
const READY_TIMEOUT_MS = 30_000;
const POLL_MS = 100;

interface Idp {
  issuer: string;
  tokenEndpoint: string;
  caFile: string;
  audience: string;
  clientId: string;
  clientSecret: string;
  ttlSeconds: number;
  hostIssuer: Record<string, unknown>;
}

/** The provider, from its Python harness; it stops when its stdin closes. */
async function startIdp(dir: string): Promise<{ idp: Idp; child: ChildProcessByStdio<Writable, Readable, null> }> {
  const root = repoRoot();
  const child = spawn(join(root, '.venv', 'bin', 'python'), ['-m', 'idp.serve', dir], {
    cwd: join(root, 'server', 'tests'),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const timer = setTimeout(() => child.kill('SIGKILL'), READY_TIMEOUT_MS);
  try {
    for await (const line of lines) return { idp: JSON.parse(line) as Idp, child };
  } finally {
    clearTimeout(timer);
  }
  throw new Error('the OpenID provider exited before it was ready (is `make setup-test` done?)');
}

/** What an application's provider does: a client-credentials token, kept until the host refuses it. */
function refreshing(idp: Idp, dispatcher: unknown): { provider: TokenProvider; told: Array<string | undefined>; held: () => string } {
  const told: Array<string | undefined> = [];
  let token = '';
  const provider: TokenProvider = async (refused) => {
    told.push(refused);
    if (token === '' || refused === token) {
      const answer = await fetch(idp.tokenEndpoint, {
        method: 'POST',
        headers: { Authorization: `Basic ${btoa(`${idp.clientId}:${idp.clientSecret}`)}` },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource: idp.audience, scope: 'sessions:create sessions:read sessions:continue sessions:delete' }),
        dispatcher,
      } as RequestInit);
      assert.equal(answer.status, 200, await answer.clone().text());
      token = ((await answer.json()) as { access_token: string }).access_token;
    }
    return token;
  };
  return { provider, told, held: () => token };
}

describe('tokens from a real OpenID provider', () => {
  let dir: string;
  let idp: Idp;
  let child: ChildProcessByStdio<Writable, Readable, null>;
  let host: Host;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'agentic-driver-ts-oidc-'));
    ({ idp, child } = await startIdp(dir));
    host = await startHost({
      config: {
        hostId: 'ts-oidc',
        providers: [{ id: 'echo', kind: 'echo', accountId: 'acct-1', models: ['echo-1'] }],
        sessions: { retentionMs: 60_000 },
        auth: { jwt: [{ ...idp.hostIssuer, providers: ['echo'] }] },
      },
      env: { SSL_CERT_FILE: idp.caFile },
    });
  });

  after(async () => {
    await host?.stop();
    child?.stdin.end();
    if (child !== undefined && child.exitCode === null) await new Promise((done) => child.once('exit', done));
    rmSync(dir, { recursive: true, force: true });
  });

  it('carry a session across an expired token through a refreshing provider', async () => {
    const dispatcher = await nodeDispatcher(5_000, readFileSync(idp.caFile));
    const { provider, told, held } = refreshing(idp, dispatcher);
    const client = new AgenticDriverClient({ baseUrl: host.baseUrl, token: provider, maxRetries: 0 });
    const { session } = await client.createSession({ ...ECHO, mode: 'history' });
    const first = await client.run({ ...ECHO, input: 'Before it expires.', session: { id: session.id, revision: 0 } });
    const expiring = held();
    assert.deepEqual(told, [undefined, undefined]);

    // Until the host refuses the held token (its exp; the issuer entry has no leeway), bounded.
    const deadline = Date.now() + (idp.ttlSeconds + 3) * 1000;
    for (;;) {
      const answer = await fetch(`${host.baseUrl}/v1/discovery`, { headers: { Authorization: `Bearer ${expiring}` } });
      if (answer.status === 401) break;
      assert.ok(Date.now() < deadline, 'the token was still accepted after its lifetime');
      await new Promise((done) => setTimeout(done, POLL_MS));
    }

    const second = await client.run({ ...ECHO, input: 'After it expired.', session: { id: session.id, revision: first.session.revision } });
    assert.equal(second.output.text, 'echo: After it expired.');
    assert.equal(second.session?.revision, 2);
    assert.deepEqual(told, [undefined, undefined, undefined, expiring]);
    assert.notEqual(held(), expiring);
    assert.ok(!host.log().includes(expiring), 'a token in the host log');
  });
});
