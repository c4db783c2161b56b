/**
 * Routing (../BEHAVIOUR.md, "Routing"): the host that owns the session or run a request is about,
 * read from the id its operation routes by (operations.gen.ts), and the header that names it. The
 * transport (transport.ts) sets the header and follows a `421`.
 */

import { operationOf } from './operations.gen.js';

/** Names the host that owns the session or run a request is about (../BEHAVIOUR.md, "Routing"). */
export const ROUTING_HEADER = 'Agentic-Host';
const ROUTED_ID = /^(?:ses|run)_([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)\./;
/**
 * The owning host of a session or run id (`ses_{hostId}.{random}`, `run_{hostId}.{random}`), or
 * `undefined` for an id in the old form (no `.`) or whose host part is not a DNS label. Only
 * routing reads it: applications treat ids as opaque.
 */
export function hostOf(id: string): string | undefined {
  return ROUTED_ID.exec(id)?.[1];
}

/**
 * The owner of what a request names, by its operation's `x-routing-id` (operations.gen.ts, generated
 * from openapi.yaml): the session or run id in its path, or the `session.id` of a run's body (`body`
 * parsed, or its JSON text). `undefined` for requests that name nothing. Without `method`, the first
 * operation on that path (the generator checks that they all route alike).
 */
export function routingHost(path: string, body: unknown, method?: string): string | undefined {
  const operation = operationOf(method, path);
  const routing = operation?.routing;
  if (operation === undefined || routing === undefined) return undefined;
  const id = routing.in === 'path' ? pathId(operation.path, path, routing.name) : bodyId(body, routing.pointer);
  return id === undefined ? undefined : hostOf(id);
}

function pathId(pattern: RegExp, path: string, name: string): string | undefined {
  const raw = pattern.exec(path)?.groups?.[name];
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

function bodyId(body: unknown, pointer: readonly string[]): string | undefined {
  let value = body;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  for (const member of pointer) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[member] : undefined;
  return typeof value === 'string' ? value : undefined;
}
