# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.run_request import RunRequest
from ...models.run_result import RunResult
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
        "url": "/v1/runs",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | RunResult | None:
    if response.status_code == 200:
        response_200 = RunResult.from_dict(response.json())

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

    if response.status_code == 502:
        response_502 = Problem.from_dict(response.json())

        return response_502

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if response.status_code == 504:
        response_504 = Problem.from_dict(response.json())

        return response_504

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | RunResult]:
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
) -> Response[Problem | RunResult]:
    """Run one model turn, stateless or continuing a session.

     A stateless run sends the whole context (`instructions`, `history`,
    `attachments`, `retrieval`). A session run sends only `input` and the
    session handle `{id, revision}`; it needs the `continue` grant, may not
    override the session's instructions or history
    (`SESSION_OVERRIDE_REJECTED`) and accepts no attachments or retrieval
    (`SESSION_CONTEXT_UNSUPPORTED`). Exactly one turn may be active in a
    session: a stale revision is `SESSION_REVISION_CONFLICT`, an active
    turn is `SESSION_BUSY`, and neither starts a model call.

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
        Response[Problem | RunResult]
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
) -> Problem | RunResult | None:
    """Run one model turn, stateless or continuing a session.

     A stateless run sends the whole context (`instructions`, `history`,
    `attachments`, `retrieval`). A session run sends only `input` and the
    session handle `{id, revision}`; it needs the `continue` grant, may not
    override the session's instructions or history
    (`SESSION_OVERRIDE_REJECTED`) and accepts no attachments or retrieval
    (`SESSION_CONTEXT_UNSUPPORTED`). Exactly one turn may be active in a
    session: a stale revision is `SESSION_REVISION_CONFLICT`, an active
    turn is `SESSION_BUSY`, and neither starts a model call.

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
        Problem | RunResult
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
) -> Response[Problem | RunResult]:
    """Run one model turn, stateless or continuing a session.

     A stateless run sends the whole context (`instructions`, `history`,
    `attachments`, `retrieval`). A session run sends only `input` and the
    session handle `{id, revision}`; it needs the `continue` grant, may not
    override the session's instructions or history
    (`SESSION_OVERRIDE_REJECTED`) and accepts no attachments or retrieval
    (`SESSION_CONTEXT_UNSUPPORTED`). Exactly one turn may be active in a
    session: a stale revision is `SESSION_REVISION_CONFLICT`, an active
    turn is `SESSION_BUSY`, and neither starts a model call.

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
        Response[Problem | RunResult]
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
) -> Problem | RunResult | None:
    """Run one model turn, stateless or continuing a session.

     A stateless run sends the whole context (`instructions`, `history`,
    `attachments`, `retrieval`). A session run sends only `input` and the
    session handle `{id, revision}`; it needs the `continue` grant, may not
    override the session's instructions or history
    (`SESSION_OVERRIDE_REJECTED`) and accepts no attachments or retrieval
    (`SESSION_CONTEXT_UNSUPPORTED`). Exactly one turn may be active in a
    session: a stale revision is `SESSION_REVISION_CONFLICT`, an active
    turn is `SESSION_BUSY`, and neither starts a model call.

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
        Problem | RunResult
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
            agentic_host=agentic_host,
        )
    ).parsed
