/**
 * Routing (../BEHAVIOUR.md, "Routing"): the host that owns the session or run a request is about,
 * read from the ids in its path or body, and the header that names it. The transport (transport.ts)
 * sets the header and follows a `421`.
 */

/** Names the host that owns the session or run a request is about (../BEHAVIOUR.md, "Routing"). */
export const ROUTING_HEADER = 'Agentic-Host';
const ROUTED_ID = /^(?:ses|run)_([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)\./;
const RUN_PATHS = /^\/v1\/runs(?:\/stream)?$/;
const NAMED_PATH = /^\/v1\/(?:sessions|runs)\/([^/]+)/;

/**
 * The owning host of a session or run id (`ses_{hostId}.{random}`, `run_{hostId}.{random}`), or
 * `undefined` for an id in the old form (no `.`) or whose host part is not a DNS label. Only
 * routing reads it: applications treat ids as opaque.
 */
export function hostOf(id: string): string | undefined {
  return ROUTED_ID.exec(id)?.[1];
}

/**
 * The owner of what a request names: the path's session or run id, or for a run the `session.id`
 * of its body (`body` parsed, or its JSON text). `undefined` for requests that name nothing.
 */
export function routingHost(path: string, body: unknown): string | undefined {
  if (RUN_PATHS.test(path)) {
    let value = body;
    if (typeof value === 'string') {
      try {
        value = JSON.parse(value);
      } catch {
        return undefined;
      }
    }
    const id = (value as { session?: { id?: unknown } } | null | undefined)?.session?.id;
    return typeof id === 'string' ? hostOf(id) : undefined;
  }
  const named = NAMED_PATH.exec(path)?.[1];
  if (named === undefined) return undefined;
  try {
    return hostOf(decodeURIComponent(named));
  } catch {
    return undefined;
  }
}
