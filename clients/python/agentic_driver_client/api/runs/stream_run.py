# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.run_event_message import RunEventMessage
from ...models.run_request import RunRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: RunRequest,
    idempotency_key: str | Unset = UNSET,
    agentic_host: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    if not isinstance(agentic_host, Unset):
        headers["Agentic-Host"] = agentic_host

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/runs/stream",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | RunEventMessage | None:
    if response.status_code == 200:
        response_200 = RunEventMessage.from_dict(response.text)

        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 408:
        response_408 = Problem.from_dict(response.json())

        return response_408

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

    if response.status_code == 421:
        response_421 = Problem.from_dict(response.json())

        return response_421

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 501:
        response_501 = Problem.from_dict(response.json())

        return response_501

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | RunEventMessage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RunRequest,
    idempotency_key: str | Unset = UNSET,
    agentic_host: str | Unset = UNSET,
) -> Response[Problem | RunEventMessage]:
    """Run one model turn and stream its events (Server-Sent Events).

     The same request and the same session rules as `run`. Refusals known
    before the stream starts (401, 403, 404, 408, 409, 413, 415, 421, 422, 501, 503)
    are ordinary problem responses. Once the run is admitted the answer is
    `text/event-stream`: each SSE message has an `id`, an `event` equal to
    the event's `type`, and `data` holding one `RunEvent` as JSON. The
    stream ends after `run.completed`, `run.requires_action` or
    `run.failed`; a provider failure after admission is a `run.failed`
    whose `problem` carries the code `run` would answer with
    (`PROVIDER_RATE_LIMITED`, `PROVIDER_OVERLOADED`, `PROVIDER_AUTH_FAILED`,
    `PROVIDER_REJECTED`, `PROVIDER_ERROR`, `PROVIDER_TIMEOUT`), including
    `retryAfterSeconds` where waiting helps. During long silences the host sends SSE comment lines
    (`: keep-alive`). A client that disconnects after model work started
    leaves the session `interrupted` (reason `disconnected`); before, the
    session stays `ready`. With `onDisconnect: continue` the run goes on
    instead; rejoin it with `streamRunEvents` and `Last-Event-ID`. A
    retry of a `continue` run with the same `Idempotency-Key` while it is
    still active joins it: the answer streams its events from the first,
    and no second turn starts.

    Args:
        idempotency_key (str | Unset):
        agentic_host (str | Unset):
        body (RunRequest): A stateless run (no `session`) or a session run. A session run owns
            neither instructions nor history (`SESSION_OVERRIDE_REJECTED`) and takes
            no attachments or retrieval (`SESSION_CONTEXT_UNSUPPORTED`); the
            `dependentSchemas` below state exactly that.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RunEventMessage]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
        agentic_host=agentic_host,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: RunRequest,
    idempotency_key: str | Unset = UNSET,
    agentic_host: str | Unset = UNSET,
) -> Problem | RunEventMessage | None:
    """Run one model turn and stream its events (Server-Sent Events).

     The same request and the same session rules as `run`. Refusals known
    before the stream starts (401, 403, 404, 408, 409, 413, 415, 421, 422, 501, 503)
    are ordinary problem responses. Once the run is admitted the answer is
    `text/event-stream`: each SSE message has an `id`, an `event` equal to
    the event's `type`, and `data` holding one `RunEvent` as JSON. The
    stream ends after `run.completed`, `run.requires_action` or
    `run.failed`; a provider failure after admission is a `run.failed`
    whose `problem` carries the code `run` would answer with
    (`PROVIDER_RATE_LIMITED`, `PROVIDER_OVERLOADED`, `PROVIDER_AUTH_FAILED`,
    `PROVIDER_REJECTED`, `PROVIDER_ERROR`, `PROVIDER_TIMEOUT`), including
    `retryAfterSeconds` where waiting helps. During long silences the host sends SSE comment lines
    (`: keep-alive`). A client that disconnects after model work started
    leaves the session `interrupted` (reason `disconnected`); before, the
    session stays `ready`. With `onDisconnect: continue` the run goes on
    instead; rejoin it with `streamRunEvents` and `Last-Event-ID`. A
    retry of a `continue` run with the same `Idempotency-Key` while it is
    still active joins it: the answer streams its events from the first,
    and no second turn starts.

    Args:
        idempotency_key (str | Unset):
        agentic_host (str | Unset):
        body (RunRequest): A stateless run (no `session`) or a session run. A session run owns
            neither instructions nor history (`SESSION_OVERRIDE_REJECTED`) and takes
            no attachments or retrieval (`SESSION_CONTEXT_UNSUPPORTED`); the
            `dependentSchemas` below state exactly that.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RunEventMessage
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
        agentic_host=agentic_host,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RunRequest,
    idempotency_key: str | Unset = UNSET,
    agentic_host: str | Unset = UNSET,
) -> Response[Problem | RunEventMessage]:
    """Run one model turn and stream its events (Server-Sent Events).

     The same request and the same session rules as `run`. Refusals known
    before the stream starts (401, 403, 404, 408, 409, 413, 415, 421, 422, 501, 503)
    are ordinary problem responses. Once the run is admitted the answer is
    `text/event-stream`: each SSE message has an `id`, an `event` equal to
    the event's `type`, and `data` holding one `RunEvent` as JSON. The
    stream ends after `run.completed`, `run.requires_action` or
    `run.failed`; a provider failure after admission is a `run.failed`
    whose `problem` carries the code `run` would answer with
    (`PROVIDER_RATE_LIMITED`, `PROVIDER_OVERLOADED`, `PROVIDER_AUTH_FAILED`,
    `PROVIDER_REJECTED`, `PROVIDER_ERROR`, `PROVIDER_TIMEOUT`), including
    `retryAfterSeconds` where waiting helps. During long silences the host sends SSE comment lines
    (`: keep-alive`). A client that disconnects after model work started
    leaves the session `interrupted` (reason `disconnected`); before, the
    session stays `ready`. With `onDisconnect: continue` the run goes on
    instead; rejoin it with `streamRunEvents` and `Last-Event-ID`. A
    retry of a `continue` run with the same `Idempotency-Key` while it is
    still active joins it: the answer streams its events from the first,
    and no second turn starts.

    Args:
        idempotency_key (str | Unset):
        agentic_host (str | Unset):
        body (RunRequest): A stateless run (no `session`) or a session run. A session run owns
            neither instructions nor history (`SESSION_OVERRIDE_REJECTED`) and takes
            no attachments or retrieval (`SESSION_CONTEXT_UNSUPPORTED`); the
            `dependentSchemas` below state exactly that.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RunEventMessage]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
        agentic_host=agentic_host,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: RunRequest,
    idempotency_key: str | Unset = UNSET,
    agentic_host: str | Unset = UNSET,
) -> Problem | RunEventMessage | None:
    """Run one model turn and stream its events (Server-Sent Events).

     The same request and the same session rules as `run`. Refusals known
    before the stream starts (401, 403, 404, 408, 409, 413, 415, 421, 422, 501, 503)
    are ordinary problem responses. Once the run is admitted the answer is
    `text/event-stream`: each SSE message has an `id`, an `event` equal to
    the event's `type`, and `data` holding one `RunEvent` as JSON. The
    stream ends after `run.completed`, `run.requires_action` or
    `run.failed`; a provider failure after admission is a `run.failed`
    whose `problem` carries the code `run` would answer with
    (`PROVIDER_RATE_LIMITED`, `PROVIDER_OVERLOADED`, `PROVIDER_AUTH_FAILED`,
    `PROVIDER_REJECTED`, `PROVIDER_ERROR`, `PROVIDER_TIMEOUT`), including
    `retryAfterSeconds` where waiting helps. During long silences the host sends SSE comment lines
    (`: keep-alive`). A client that disconnects after model work started
    leaves the session `interrupted` (reason `disconnected`); before, the
    session stays `ready`. With `onDisconnect: continue` the run goes on
    instead; rejoin it with `streamRunEvents` and `Last-Event-ID`. A
    retry of a `continue` run with the same `Idempotency-Key` while it is
    still active joins it: the answer streams its events from the first,
    and no second turn starts.

    Args:
        idempotency_key (str | Unset):
        agentic_host (str | Unset):
        body (RunRequest): A stateless run (no `session`) or a session run. A session run owns
            neither instructions nor history (`SESSION_OVERRIDE_REJECTED`) and takes
            no attachments or retrieval (`SESSION_CONTEXT_UNSUPPORTED`); the
            `dependentSchemas` below state exactly that.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RunEventMessage
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
            agentic_host=agentic_host,
        )
    ).parsed
