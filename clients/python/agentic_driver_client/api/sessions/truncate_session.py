# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_session_response import CreateSessionResponse
from ...models.problem import Problem
from ...models.truncate_session_request import TruncateSessionRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    session_id: str,
    *,
    body: TruncateSessionRequest,
    agentic_host: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(agentic_host, Unset):
        headers["Agentic-Host"] = agentic_host

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sessions/{session_id}/truncate".format(
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
    if response.status_code == 200:
        response_200 = CreateSessionResponse.from_dict(response.json())

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

    if response.status_code == 501:
        response_501 = Problem.from_dict(response.json())

        return response_501

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
    body: TruncateSessionRequest,
    agentic_host: str | Unset = UNSET,
) -> Response[CreateSessionResponse | Problem]:
    """Keep only the first turns of a session (explicit prefix truncation).

     Keeps the first `keepTurns` recorded turns (and any history imported at
    creation) and drops the rest, advancing the revision. Nothing that stays
    is rewritten, so native state (signed blocks) stays valid and a cut
    never separates a tool call from its result. Accounting is untouched.
    It follows a run's rules: a stale revision is
    `SESSION_REVISION_CONFLICT`, an active turn `SESSION_BUSY`. An
    interrupted session may be truncated (to its last good turn, or
    further), which makes it ready again: the documented way to recover a
    conversation without starting over. Needs the `continue` grant.

    Args:
        session_id (str):
        agentic_host (str | Unset):
        body (TruncateSessionRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateSessionResponse | Problem]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        body=body,
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
    body: TruncateSessionRequest,
    agentic_host: str | Unset = UNSET,
) -> CreateSessionResponse | Problem | None:
    """Keep only the first turns of a session (explicit prefix truncation).

     Keeps the first `keepTurns` recorded turns (and any history imported at
    creation) and drops the rest, advancing the revision. Nothing that stays
    is rewritten, so native state (signed blocks) stays valid and a cut
    never separates a tool call from its result. Accounting is untouched.
    It follows a run's rules: a stale revision is
    `SESSION_REVISION_CONFLICT`, an active turn `SESSION_BUSY`. An
    interrupted session may be truncated (to its last good turn, or
    further), which makes it ready again: the documented way to recover a
    conversation without starting over. Needs the `continue` grant.

    Args:
        session_id (str):
        agentic_host (str | Unset):
        body (TruncateSessionRequest):

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
        agentic_host=agentic_host,
    ).parsed


async def asyncio_detailed(
    session_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: TruncateSessionRequest,
    agentic_host: str | Unset = UNSET,
) -> Response[CreateSessionResponse | Problem]:
    """Keep only the first turns of a session (explicit prefix truncation).

     Keeps the first `keepTurns` recorded turns (and any history imported at
    creation) and drops the rest, advancing the revision. Nothing that stays
    is rewritten, so native state (signed blocks) stays valid and a cut
    never separates a tool call from its result. Accounting is untouched.
    It follows a run's rules: a stale revision is
    `SESSION_REVISION_CONFLICT`, an active turn `SESSION_BUSY`. An
    interrupted session may be truncated (to its last good turn, or
    further), which makes it ready again: the documented way to recover a
    conversation without starting over. Needs the `continue` grant.

    Args:
        session_id (str):
        agentic_host (str | Unset):
        body (TruncateSessionRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateSessionResponse | Problem]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        body=body,
        agentic_host=agentic_host,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    session_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: TruncateSessionRequest,
    agentic_host: str | Unset = UNSET,
) -> CreateSessionResponse | Problem | None:
    """Keep only the first turns of a session (explicit prefix truncation).

     Keeps the first `keepTurns` recorded turns (and any history imported at
    creation) and drops the rest, advancing the revision. Nothing that stays
    is rewritten, so native state (signed blocks) stays valid and a cut
    never separates a tool call from its result. Accounting is untouched.
    It follows a run's rules: a stale revision is
    `SESSION_REVISION_CONFLICT`, an active turn `SESSION_BUSY`. An
    interrupted session may be truncated (to its last good turn, or
    further), which makes it ready again: the documented way to recover a
    conversation without starting over. Needs the `continue` grant.

    Args:
        session_id (str):
        agentic_host (str | Unset):
        body (TruncateSessionRequest):

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
            agentic_host=agentic_host,
        )
    ).parsed
