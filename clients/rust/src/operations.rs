// Generated from openapi.yaml by generator/operations.py. DO NOT EDIT.

//! Per operation: its method and path template, whether it takes an `Idempotency-Key`, and the id
//! that routes it (`x-routing-id`: a path parameter, or members of the JSON body). Each method of
//! [`crate::Client`] builds its call from its operation's row (`call.rs`).

// The client wraps not every operation (`Client::raw` has them all), and only its tests read some facts.
#![allow(dead_code)]

/// Where the id that routes a request is: `Agentic-Host` names the host that owns it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Routing {
    /// The request names no session or run.
    None,
    /// The path parameter of this name.
    PathParam(&'static str),
    /// These members of the JSON body (`["session", "id"]`).
    BodyPointer(&'static [&'static str]),
}

/// The facts of one operation of openapi.yaml.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Operation {
    /// The `operationId`.
    pub(crate) id: &'static str,
    pub(crate) method: &'static str,
    /// The path template (`/v1/sessions/{sessionId}`).
    pub(crate) path: &'static str,
    /// The operation declares the `Idempotency-Key` header.
    pub(crate) takes_idempotency_key: bool,
    pub(crate) routing: Routing,
}

/// `GET /healthz` (`getHealth`).
pub(crate) const GET_HEALTH: Operation = Operation {
    id: "getHealth",
    method: "GET",
    path: "/healthz",
    takes_idempotency_key: false,
    routing: Routing::None,
};

/// `GET /readyz` (`getReadiness`).
pub(crate) const GET_READINESS: Operation = Operation {
    id: "getReadiness",
    method: "GET",
    path: "/readyz",
    takes_idempotency_key: false,
    routing: Routing::None,
};

/// `GET /v1/discovery` (`getDiscovery`).
pub(crate) const GET_DISCOVERY: Operation = Operation {
    id: "getDiscovery",
    method: "GET",
    path: "/v1/discovery",
    takes_idempotency_key: false,
    routing: Routing::None,
};

/// `POST /v1/runs` (`run`).
pub(crate) const RUN: Operation = Operation {
    id: "run",
    method: "POST",
    path: "/v1/runs",
    takes_idempotency_key: true,
    routing: Routing::BodyPointer(&["session", "id"]),
};

/// `POST /v1/runs/stream` (`streamRun`).
pub(crate) const STREAM_RUN: Operation = Operation {
    id: "streamRun",
    method: "POST",
    path: "/v1/runs/stream",
    takes_idempotency_key: true,
    routing: Routing::BodyPointer(&["session", "id"]),
};

/// `POST /v1/sessions` (`createSession`).
pub(crate) const CREATE_SESSION: Operation = Operation {
    id: "createSession",
    method: "POST",
    path: "/v1/sessions",
    takes_idempotency_key: true,
    routing: Routing::None,
};

/// `GET /v1/runs/{runId}` (`getRun`).
pub(crate) const GET_RUN: Operation = Operation {
    id: "getRun",
    method: "GET",
    path: "/v1/runs/{runId}",
    takes_idempotency_key: false,
    routing: Routing::PathParam("runId"),
};

/// `POST /v1/runs/{runId}/actions` (`submitRunActions`).
pub(crate) const SUBMIT_RUN_ACTIONS: Operation = Operation {
    id: "submitRunActions",
    method: "POST",
    path: "/v1/runs/{runId}/actions",
    takes_idempotency_key: true,
    routing: Routing::PathParam("runId"),
};

/// `POST /v1/runs/{runId}/actions/stream` (`streamRunActions`).
pub(crate) const STREAM_RUN_ACTIONS: Operation = Operation {
    id: "streamRunActions",
    method: "POST",
    path: "/v1/runs/{runId}/actions/stream",
    takes_idempotency_key: true,
    routing: Routing::PathParam("runId"),
};

/// `POST /v1/runs/{runId}/cancel` (`cancelRun`).
pub(crate) const CANCEL_RUN: Operation = Operation {
    id: "cancelRun",
    method: "POST",
    path: "/v1/runs/{runId}/cancel",
    takes_idempotency_key: false,
    routing: Routing::PathParam("runId"),
};

/// `GET /v1/runs/{runId}/events` (`streamRunEvents`).
pub(crate) const STREAM_RUN_EVENTS: Operation = Operation {
    id: "streamRunEvents",
    method: "GET",
    path: "/v1/runs/{runId}/events",
    takes_idempotency_key: false,
    routing: Routing::PathParam("runId"),
};

/// `DELETE /v1/sessions/{sessionId}` (`deleteSession`).
pub(crate) const DELETE_SESSION: Operation = Operation {
    id: "deleteSession",
    method: "DELETE",
    path: "/v1/sessions/{sessionId}",
    takes_idempotency_key: false,
    routing: Routing::PathParam("sessionId"),
};

/// `GET /v1/sessions/{sessionId}` (`readSession`).
pub(crate) const READ_SESSION: Operation = Operation {
    id: "readSession",
    method: "GET",
    path: "/v1/sessions/{sessionId}",
    takes_idempotency_key: false,
    routing: Routing::PathParam("sessionId"),
};

/// `POST /v1/sessions/{sessionId}/fork` (`forkSession`).
pub(crate) const FORK_SESSION: Operation = Operation {
    id: "forkSession",
    method: "POST",
    path: "/v1/sessions/{sessionId}/fork",
    takes_idempotency_key: true,
    routing: Routing::PathParam("sessionId"),
};

/// `POST /v1/sessions/{sessionId}/truncate` (`truncateSession`).
pub(crate) const TRUNCATE_SESSION: Operation = Operation {
    id: "truncateSession",
    method: "POST",
    path: "/v1/sessions/{sessionId}/truncate",
    takes_idempotency_key: false,
    routing: Routing::PathParam("sessionId"),
};

/// Every operation, literal paths before templated ones.
pub(crate) const OPERATIONS: [&Operation; 15] = [
    &GET_HEALTH,
    &GET_READINESS,
    &GET_DISCOVERY,
    &RUN,
    &STREAM_RUN,
    &CREATE_SESSION,
    &GET_RUN,
    &SUBMIT_RUN_ACTIONS,
    &STREAM_RUN_ACTIONS,
    &CANCEL_RUN,
    &STREAM_RUN_EVENTS,
    &DELETE_SESSION,
    &READ_SESSION,
    &FORK_SESSION,
    &TRUNCATE_SESSION,
];
