"""Streamed runs through the generated client, as typed events: test tooling for the host's SSE answers.

openapi-python-client does not stream, so these tests read ``/v1/runs/stream`` and
``/v1/runs/{runId}/actions/stream`` with the generated client's own httpx client and
parse each event with the SDK's ``parse_event``, so that what is tested is the host's
stream, not the SDK's retries. A refusal before the stream starts raises
``ProblemError`` with the parsed problem. Leaving the ``with`` block closes the
connection (a disconnect, for the host).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import httpx
from agentic_driver_client import AuthenticatedClient
from agentic_driver_client.models import Problem, RunRequest, SubmitRunActionsRequest
from agentic_driver_sdk import Event, parse_event
from httpx_sse import EventSource, aconnect_sse, connect_sse

__all__ = ["ProblemError", "astream_run", "astream_run_actions", "stream_run", "stream_run_actions"]


class ProblemError(Exception):
    """The host refused the request with a problem response (before any event was sent)."""

    def __init__(self, status: int, problem: Problem | None, body: str) -> None:
        self.status = status
        self.problem = problem
        self.code = str(problem.code) if problem is not None else None
        detail = problem.detail if problem is not None else body[:200]
        super().__init__(f"{status} {self.code or 'error'}: {detail}")


def _problem(response: httpx.Response, body: bytes) -> ProblemError:
    text = body.decode("utf-8", "replace")
    try:
        problem = Problem.from_dict(json.loads(text))
    except (ValueError, KeyError, TypeError):
        problem = None
    return ProblemError(response.status_code, problem, text)


def _headers(idempotency_key: str | None) -> dict[str, str]:
    headers = {"Accept": "text/event-stream"}
    if idempotency_key is not None:
        headers["Idempotency-Key"] = idempotency_key
    return headers


def _events(source: EventSource) -> Iterator[Event]:
    for sse in source.iter_sse():
        if sse.data:  # keep-alive comments can surface as data-less events; they carry nothing
            yield parse_event(sse)


async def _aevents(source: EventSource) -> AsyncIterator[Event]:
    async for sse in source.aiter_sse():
        if sse.data:
            yield parse_event(sse)


@contextmanager
def _stream(client: AuthenticatedClient, path: str, body: dict[str, Any], key: str | None) -> Iterator[Iterator[Event]]:
    http = client.get_httpx_client()
    with connect_sse(http, "POST", path, json=body, headers=_headers(key)) as source:
        if source.response.status_code != 200:
            raise _problem(source.response, source.response.read())
        yield _events(source)


@asynccontextmanager
async def _astream(
    client: AuthenticatedClient, path: str, body: dict[str, Any], key: str | None
) -> AsyncIterator[AsyncIterator[Event]]:
    http = client.get_async_httpx_client()
    async with aconnect_sse(http, "POST", path, json=body, headers=_headers(key)) as source:
        if source.response.status_code != 200:
            raise _problem(source.response, await source.response.aread())
        yield _aevents(source)


def stream_run(client: AuthenticatedClient, body: RunRequest, *, idempotency_key: str | None = None) -> Any:
    """``POST /v1/runs/stream`` as a context manager yielding typed events."""
    return _stream(client, "/v1/runs/stream", body.to_dict(), idempotency_key)


def stream_run_actions(
    client: AuthenticatedClient, run_id: str, body: SubmitRunActionsRequest, *, idempotency_key: str | None = None
) -> Any:
    """``POST /v1/runs/{runId}/actions/stream`` as a context manager yielding typed events."""
    return _stream(client, f"/v1/runs/{run_id}/actions/stream", body.to_dict(), idempotency_key)


def astream_run(client: AuthenticatedClient, body: RunRequest, *, idempotency_key: str | None = None) -> Any:
    """The async form of ``stream_run``: ``async with astream_run(...) as events: async for ...``."""
    return _astream(client, "/v1/runs/stream", body.to_dict(), idempotency_key)


def astream_run_actions(
    client: AuthenticatedClient, run_id: str, body: SubmitRunActionsRequest, *, idempotency_key: str | None = None
) -> Any:
    return _astream(client, f"/v1/runs/{run_id}/actions/stream", body.to_dict(), idempotency_key)
