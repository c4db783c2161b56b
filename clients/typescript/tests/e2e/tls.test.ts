// A host serving HTTPS with a certificate from a throwaway CA, made by trustme (`python -m
// trustme`, from the virtualenv of the agentic-driver executable): a client trusting the CA
// (`ca`, or NODE_EXTRA_CA_CERTS in a fresh Node process) completes a session turn; one that does
// not fails with ConnectionError.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { AgenticDriverClient, ConnectionError, TimeoutError } from '../../src/index.js';
import { type Host, serveCommand, standardHostConfig, startHost, TOKENS } from '../harness.js';

const ECHO = { provider: 'echo', model: 'echo-1' } as const;
const CHILD_TIMEOUT_MS = 30_000;

interface ThrowawayCA {
  caFile: string;
  ca: string;
  certFile: string;
  keyFile: string;
}

/** A CA (client.pem) and a server certificate for 127.0.0.1 and localhost (server.pem, server.key) in `dir`. */
function throwawayCA(dir: string): ThrowawayCA {
  const python = join(dirname(serveCommand()), 'python');
  execFileSync(python, ['-m', 'trustme', '-q', '-d', dir, '-i', '127.0.0.1', 'localhost'], { stdio: 'pipe' });
  const caFile = join(dir, 'client.pem');
  return { caFile, ca: readFileSync(caFile, 'utf8'), certFile: join(dir, 'server.pem'), keyFile: join(dir, 'server.key') };
}

async function sessionTurn(client: AgenticDriverClient): Promise<void> {
  const { session } = await client.createSession({ ...ECHO, mode: 'history' });
  const result = await client.run({ ...ECHO, input: 'over TLS', session: { id: session.id, revision: session.revision } });
  assert.equal(result.output.text, 'echo: over TLS');
  assert.equal(result.session?.revision, session.revision + 1);
}

describe('a host serving HTTPS with a private CA', () => {
  let dir: string;
  let ca: ThrowawayCA;
  let host: Host;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'agentic-driver-ts-tls-'));
    ca = throwawayCA(dir);
    host = await startHost({ config: standardHostConfig(), tls: { certFile: ca.certFile, keyFile: ca.keyFile, ca: ca.ca } });
  });

  after(async () => {
    await host?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a client trusting the CA (PEM text) completes a session turn', async () => {
    await sessionTurn(new AgenticDriverClient({ baseUrl: host.baseUrl, token: TOKENS.full, ca: ca.ca }));
  });

  it('a client trusting the CA (PEM bytes, in a list) completes a session turn on localhost', async () => {
    const baseUrl = host.baseUrl.replace('127.0.0.1', 'localhost');
    await sessionTurn(new AgenticDriverClient({ baseUrl, token: TOKENS.full, ca: [readFileSync(ca.caFile)] }));
  });

  for (const anotherCA of [false, true]) {
    it(`a client trusting ${anotherCA ? 'another CA' : "Node's roots"} fails with ConnectionError`, async () => {
      const options = { baseUrl: host.baseUrl, token: TOKENS.full, maxRetries: 0 };
      const other = anotherCA ? { ca: throwawayCA(mkdtempSync(join(dir, 'other-'))).ca } : {};
      const client = new AgenticDriverClient({ ...options, ...other });
      const failure: unknown = await client.getDiscovery().then(
        () => assert.fail('an untrusted host answered'),
        (error: unknown) => error,
      );
      assert.ok(failure instanceof ConnectionError && !(failure instanceof TimeoutError), String(failure));
      assert.match(String((failure.cause as { cause?: { code?: string } })?.cause?.code), /CERT|SIGNATURE|ISSUER/);
    });
  }

  it('NODE_EXTRA_CA_CERTS (read when Node starts) is trusted without the ca option', () => {
    const index = new URL('../../src/index.js', import.meta.url).href;
    const program = `
      import { AgenticDriverClient } from ${JSON.stringify(index)};
      const client = new AgenticDriverClient({ baseUrl: process.env.URL, token: process.env.TOKEN, maxRetries: 0 });
      const { session } = await client.createSession({ provider: 'echo', model: 'echo-1', mode: 'history' });
      const handle = { id: session.id, revision: session.revision };
      const result = await client.run({ provider: 'echo', model: 'echo-1', input: 'extra CA', session: handle });
      console.log(result.output.text);`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', program], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: ca.caFile, URL: host.baseUrl, TOKEN: TOKENS.full },
      timeout: CHILD_TIMEOUT_MS,
      encoding: 'utf8',
    });
    assert.equal(output.trim(), 'echo: extra CA');
  });

  it('ca cannot be combined with a fetch of your own', () => {
    assert.throws(
      () => new AgenticDriverClient({ baseUrl: host.baseUrl, ca: ca.ca, fetch: globalThis.fetch }),
      /ca cannot be combined with fetch/,
    );
  });
});
