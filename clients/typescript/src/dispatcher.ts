/**
 * Node's fetch (undici) set-up for the transport (transport.ts): a dispatcher with the connect
 * timeout and undici's own limits off, one that trusts a client's CA bundle, and the keeper that
 * hands the client every 421 itself.
 */

const UTF8 = new TextDecoder();

interface AgentClass {
  new (options: object): unknown;
}

const dispatchers = new Map<number, Promise<unknown>>();

interface DispatchHandler {
  onHeaders?: (status: number, rawHeaders: Uint8Array[], ...rest: unknown[]) => unknown;
}

interface Dispatcher {
  dispatch(options: unknown, handler: DispatchHandler): unknown;
}

/** The dispatcher fetch is given: `agent` (undici's) behind the 421 keeper. */
interface Keeping421 extends Dispatcher {
  readonly agent: Dispatcher;
}

/** Marks a 421 that `keeping421` passed to fetch under another status. */
const MARK_421 = 'x-agentic-driver-status-421';

/**
 * The Fetch standard has fetch send a request answered 421 again by itself, once, on a new
 * connection, with the same headers: the client would never see the first 421 and could not
 * follow it to its owner (../BEHAVIOUR.md, Routing). Node's resend of a request with a body also
 * fails now and then, when the 421 arrives before the body is written (`fetch failed`, cause
 * `UND_ERR_REQ_CONTENT_LENGTH_MISMATCH`; nodejs/help#4345): 41 of 300 runs for another host's
 * session failed so against the reference host on loopback, none through this dispatcher. This dispatcher hands fetch a 421 as a 400
 * carrying a marker header, and `restored421` turns it back into the 421 it was.
 */
function keeping421(inner: Dispatcher): Keeping421 {
  // Node's own Buffer (undici reads header bytes with buffer.toString('latin1')); this runs under Node only.
  const { Buffer } = globalThis as unknown as { Buffer: { from(text: string): Uint8Array } };
  return {
    agent: inner,
    dispatch(options, handler) {
      const wrapped = new Proxy(handler, {
        get(target, name) {
          const value = Reflect.get(target, name) as unknown;
          if (name === 'onHeaders' && typeof value === 'function') {
            return (status: number, rawHeaders: Uint8Array[], ...rest: unknown[]) =>
              status === 421
                ? value.call(target, 400, [...rawHeaders, Buffer.from(MARK_421), Buffer.from('1')], ...rest)
                : value.call(target, status, rawHeaders, ...rest);
          }
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      return inner.dispatch(options, wrapped);
    },
  };
}

/** The 421 behind a response that `keeping421` marked (the response itself otherwise). */
export function restored421(response: Response): Response {
  if (response.headers.get(MARK_421) === null) return response;
  const headers = new Headers(response.headers);
  headers.delete(MARK_421);
  return new Response(response.body, { status: 421, statusText: 'Misdirected Request', headers });
}

/**
 * Node's fetch (undici) has no connect timeout option, and its default dispatcher gives up on a
 * head after 300 s (shorter than the 600 s read timeout). So under Node, with the platform's own
 * `fetch`, the client sends through a dispatcher of the same class as Node's default one, with
 * `connect.timeout` set and undici's head/body limits off (this module's timers apply instead).
 * Only when Node's default dispatcher is the stock `Agent`: a dispatcher the application
 * installed (a proxy agent) is left in charge. Undefined elsewhere. With `ca` (a client's CA
 * bundle), a new dispatcher that trusts those roots only, for the caller to keep; it rejects
 * where it cannot apply them (not Node, or an application-installed dispatcher).
 */
export function nodeDispatcher(connectMs: number, ca?: CACertificates): Promise<unknown> {
  if (ca !== undefined) return createNodeDispatcher(connectMs, ca); // not shared: the caller keeps it
  let pending = dispatchers.get(connectMs);
  if (pending === undefined) {
    pending = createNodeDispatcher(connectMs);
    dispatchers.set(connectMs, pending);
  }
  return pending;
}

/** PEM text of CA certificates (a string or its bytes), or several. */
export type CACertificates = string | Uint8Array | ReadonlyArray<string | Uint8Array>;

async function createNodeDispatcher(connectMs: number, ca?: CACertificates): Promise<unknown> {
  const node = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
  if (node === undefined) {
    if (ca !== undefined) throw new Error('the ca option needs Node.js (its fetch takes a dispatcher)');
    return undefined;
  }
  // tls.connect's own `ca`: these roots replace Node's, so the host's certificate is still verified.
  if (ca !== undefined) return trustingDispatcher(connectMs, ca);
  try {
    const Agent = await stockAgent();
    if (Agent === undefined) return undefined;
    return keeping421(new Agent({ connect: { timeout: connectMs }, headersTimeout: 0, bodyTimeout: 0 }) as Dispatcher);
  } catch {
    return undefined;
  }
}

/** The class of Node's default dispatcher, when it is the stock `Agent` (undefined otherwise). */
async function stockAgent(): Promise<AgentClass | undefined> {
  const key = Symbol.for('undici.globalDispatcher.1');
  const slot = globalThis as unknown as Record<symbol, unknown>;
  // Node creates its default dispatcher on its first fetch; a data: URL makes one without I/O.
  if (slot[key] === undefined) await (await fetch('data:,')).arrayBuffer();
  const current = slot[key] as { constructor?: AgentClass & { name?: string } } | undefined;
  const Agent = current?.constructor;
  return Agent === undefined || Agent.name !== 'Agent' ? undefined : Agent;
}

async function trustingDispatcher(connectMs: number, ca: CACertificates): Promise<unknown> {
  const Agent = await stockAgent();
  if (Agent === undefined) {
    throw new Error("the ca option needs Node's own fetch dispatcher (an application-installed one is in charge)");
  }
  const roots = (Array.isArray(ca) ? ca : [ca]).map((pem: string | Uint8Array) => (typeof pem === 'string' ? pem : UTF8.decode(pem)));
  return keeping421(new Agent({ connect: { timeout: connectMs, ca: roots }, headersTimeout: 0, bodyTimeout: 0 }) as Dispatcher);
}
