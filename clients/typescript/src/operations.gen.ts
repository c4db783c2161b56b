// Generated from openapi.yaml by generator/operations.py. DO NOT EDIT.
// Per operation: its method and path, whether it takes an Idempotency-Key, and the id that routes it
// (x-routing-id). The transport looks every outgoing request up here (operationOf).

/** Where the id that routes a request is: a path parameter, or members of the JSON body. */
export type Routing =
  | { readonly in: 'path'; readonly name: string }
  | { readonly in: 'body'; readonly pointer: readonly string[] };

export interface OperationFacts {
  readonly id: string;
  readonly method: string;
  readonly path: RegExp;
  readonly idempotencyKey: boolean;
  readonly routing?: Routing;
}

export const OPERATIONS: readonly OperationFacts[] = [
  { id: "getHealth", method: "GET", path: /^\/healthz$/, idempotencyKey: false },
  { id: "getReadiness", method: "GET", path: /^\/readyz$/, idempotencyKey: false },
  { id: "getDiscovery", method: "GET", path: /^\/v1\/discovery$/, idempotencyKey: false },
  { id: "run", method: "POST", path: /^\/v1\/runs$/, idempotencyKey: true, routing: { in: 'body', pointer: ["session", "id"] } },
  { id: "streamRun", method: "POST", path: /^\/v1\/runs\/stream$/, idempotencyKey: true, routing: { in: 'body', pointer: ["session", "id"] } },
  { id: "createSession", method: "POST", path: /^\/v1\/sessions$/, idempotencyKey: true },
  { id: "getRun", method: "GET", path: /^\/v1\/runs\/(?<runId>[^\/]+)$/, idempotencyKey: false, routing: { in: 'path', name: "runId" } },
  { id: "submitRunActions", method: "POST", path: /^\/v1\/runs\/(?<runId>[^\/]+)\/actions$/, idempotencyKey: true, routing: { in: 'path', name: "runId" } },
  { id: "streamRunActions", method: "POST", path: /^\/v1\/runs\/(?<runId>[^\/]+)\/actions\/stream$/, idempotencyKey: true, routing: { in: 'path', name: "runId" } },
  { id: "cancelRun", method: "POST", path: /^\/v1\/runs\/(?<runId>[^\/]+)\/cancel$/, idempotencyKey: false, routing: { in: 'path', name: "runId" } },
  { id: "streamRunEvents", method: "GET", path: /^\/v1\/runs\/(?<runId>[^\/]+)\/events$/, idempotencyKey: false, routing: { in: 'path', name: "runId" } },
  { id: "deleteSession", method: "DELETE", path: /^\/v1\/sessions\/(?<sessionId>[^\/]+)$/, idempotencyKey: false, routing: { in: 'path', name: "sessionId" } },
  { id: "readSession", method: "GET", path: /^\/v1\/sessions\/(?<sessionId>[^\/]+)$/, idempotencyKey: false, routing: { in: 'path', name: "sessionId" } },
  { id: "forkSession", method: "POST", path: /^\/v1\/sessions\/(?<sessionId>[^\/]+)\/fork$/, idempotencyKey: true, routing: { in: 'path', name: "sessionId" } },
  { id: "truncateSession", method: "POST", path: /^\/v1\/sessions\/(?<sessionId>[^\/]+)\/truncate$/, idempotencyKey: false, routing: { in: 'path', name: "sessionId" } },
];

/**
 * The operation a request is (by its method and path), or undefined for one outside the contract.
 * Without a method, the first operation on the path: every operation of a path routes alike.
 */
export function operationOf(method: string | undefined, path: string): OperationFacts | undefined {
  return OPERATIONS.find((op) => (method === undefined || op.method === method) && op.path.test(path));
}
