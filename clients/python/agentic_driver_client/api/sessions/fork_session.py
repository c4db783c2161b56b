# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_session_response import CreateSessionResponse
from ...models.fork_session_request import ForkSessionRequest
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    session_id: str,
    *,
    body: ForkSessionRequest,
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
        "url": "/v1/sessions/{session_id}/fork".format(
            session_id=quote(str(session_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CreateSessionResponse | Problem | None:
    if response.status_code == 201:
        response_201 = CreateSessionResponse.from_dict(response.json())

        return response_201

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
) -> Response[CreateSessionResponse | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    session_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: ForkSessionRequest,
    idempotency_key: str | Unset = UNSET,
    agentic_host: str | Unset = UNSET,
) -> Response[CreateSessionResponse | Problem]:
    """Copy a session up to a turn boundary into a new session on the same host.

     Creates a new session owned by the caller on the same host, with the
    source's provider instance, account, model, mode, instructions and
    `nativeHistory`, holding its history, recorded turns and native state
    up to the boundary `revision` (default: the current one). Native state
    is copied inside the host and never leaves it. The source is not
    changed, and both sessions then continue independently.

    The boundary is 0 (the imported history only), the current revision,
    or the revision of a turn still recorded. The fork starts at that
    revision, with the source's turns up to it (a revision numbers a state
    of the history, and the fork holds that state), and with its own
    accounting at zero (what the source consumed stays counted once, on
    the source). An interrupted source forks from its last good state and
    the fork is ready. A source with an active turn is `SESSION_BUSY`; a
    boundary the session no longer holds (truncated, or not yet reached)
    is `SESSION_REVISION_CONFLICT` with `currentRevision`. Needs the
    `read` and `create` grants and a grant for the provider instance;
    store capacity applies as for `createSession`, and so do idempotency
    keys.

    Args:
        session_id (str):
        idempotency_key (str | Unset):
        agentic_host (str | Unset):
        body (ForkSessionRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateSessionResponse | Problem]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        body=body,
        idempotency_key=idempotency_key,
        agentic_host=agentic_host,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    session_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: ForkSessionRequest,
    idempotency_key: str | Unset = UNSET,
    agentic_host: str | Unset = UNSET,
) -> CreateSessionResponse | Problem | None:
    """Copy a session up to a turn boundary into a new session on the same host.

     Creates a new session owned by the caller on the same host, with the
    source's provider instance, account, model, mode, instructions and
    `nativeHistory`, holding its history, recorded turns and native state
    up to the boundary `revision` (default: the current one). Native state
    is copied inside the host and never leaves it. The source is not
    changed, and both sessions then continue independently.

    The boundary is 0 (the imported history only), the current revision,
    or the revision of a turn still recorded. The fork starts at that
    revision, with the source's turns up to it (a revision numbers a state
    of the history, and the fork holds that state), and with its own
    accounting at zero (what the source consumed stays counted once, on
    the source). An interrupted source forks from its last good state and
    the fork is ready. A source with an active turn is `SESSION_BUSY`; a
    boundary the session no longer holds (truncated, or not yet reached)
    is `SESSION_REVISION_CONFLICT` with `currentRevision`. Needs the
    `read` and `create` grants and a grant for the provider instance;
    store capacity applies as for `createSession`, and so do idempotency
    keys.

    Args:
        session_id (str):
        idempotency_key (str | Unset):
        agentic_host (str | Unset):
        body (ForkSessionRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateSessionResponse | Problem
    """

    return sync_detailed(
        session_id=session_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
        agentic_host=agentic_host,
    ).parsed


async def asyncio_detailed(
    session_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: ForkSessionRequest,
    idempotency_key: str | Unset = UNSET,
    agentic_host: str | Unset = UNSET,
) -> Response[CreateSessionResponse | Problem]:
    """Copy a session up to a turn boundary into a new session on the same host.

     Creates a new session owned by the caller on the same host, with the
    source's provider instance, account, model, mode, instructions and
    `nativeHistory`, holding its history, recorded turns and native state
    up to the boundary `revision` (default: the current one). Native state
    is copied inside the host and never leaves it. The source is not
    changed, and both sessions then continue independently.

    The boundary is 0 (the imported history only), the current revision,
    or the revision of a turn still recorded. The fork starts at that
    revision, with the source's turns up to it (a revision numbers a state
    of the history, and the fork holds that state), and with its own
    accounting at zero (what the source consumed stays counted once, on
    the source). An interrupted source forks from its last good state and
    the fork is ready. A source with an active turn is `SESSION_BUSY`; a
    boundary the session no longer holds (truncated, or not yet reached)
    is `SESSION_REVISION_CONFLICT` with `currentRevision`. Needs the
    `read` and `create` grants and a grant for the provider instance;
    store capacity applies as for `createSession`, and so do idempotency
    keys.

    Args:
        session_id (str):
        idempotency_key (str | Unset):
        agentic_host (str | Unset):
        body (ForkSessionRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateSessionResponse | Problem]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        body=body,
        idempotency_key=idempotency_key,
        agentic_host=agentic_host,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    session_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: ForkSessionRequest,
    idempotency_key: str | Unset = UNSET,
    agentic_host: str | Unset = UNSET,
) -> CreateSessionResponse | Problem | None:
    """Copy a session up to a turn boundary into a new session on the same host.

     Creates a new session owned by the caller on the same host, with the
    source's provider instance, account, model, mode, instructions and
    `nativeHistory`, holding its history, recorded turns and native state
    up to the boundary `revision` (default: the current one). Native state
    is copied inside the host and never leaves it. The source is not
    changed, and both sessions then continue independently.

    The boundary is 0 (the imported history only), the current revision,
    or the revision of a turn still recorded. The fork starts at that
    revision, with the source's turns up to it (a revision numbers a state
    of the history, and the fork holds that state), and with its own
    accounting at zero (what the source consumed stays counted once, on
    the source). An interrupted source forks from its last good state and
    the fork is ready. A source with an active turn is `SESSION_BUSY`; a
    boundary the session no longer holds (truncated, or not yet reached)
    is `SESSION_REVISION_CONFLICT` with `currentRevision`. Needs the
    `read` and `create` grants and a grant for the provider instance;
    store capacity applies as for `createSession`, and so do idempotency
    keys.

    Args:
        session_id (str):
        idempotency_key (str | Unset):
        agentic_host (str | Unset):
        body (ForkSessionRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateSessionResponse | Problem
    """

    return (
        await asyncio_detailed(
            session_id=session_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
            agentic_host=agentic_host,
        )
    ).parsed
