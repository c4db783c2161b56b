# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    session_id: str,
    *,
    agentic_host: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(agentic_host, Unset):
        headers["Agentic-Host"] = agentic_host

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/v1/sessions/{session_id}".format(
            session_id=quote(str(session_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Problem | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 421:
        response_421 = Problem.from_dict(response.json())

        return response_421

    if response.status_code == 501:
        response_501 = Problem.from_dict(response.json())

        return response_501

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | Problem]:
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
    agentic_host: str | Unset = UNSET,
) -> Response[Any | Problem]:
    """Delete a session and abort its active turn.

     Needs the `delete` session grant and a grant for the session's provider
    instance. An active turn is aborted, including a run still waiting for
    a run slot; its request answers `RUN_CANCELLED`. Deletion cannot undo
    external tool effects.

    Args:
        session_id (str):
        agentic_host (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
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
    agentic_host: str | Unset = UNSET,
) -> Any | Problem | None:
    """Delete a session and abort its active turn.

     Needs the `delete` session grant and a grant for the session's provider
    instance. An active turn is aborted, including a run still waiting for
    a run slot; its request answers `RUN_CANCELLED`. Deletion cannot undo
    external tool effects.

    Args:
        session_id (str):
        agentic_host (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return sync_detailed(
        session_id=session_id,
        client=client,
        agentic_host=agentic_host,
    ).parsed


async def asyncio_detailed(
    session_id: str,
    *,
    client: AuthenticatedClient | Client,
    agentic_host: str | Unset = UNSET,
) -> Response[Any | Problem]:
    """Delete a session and abort its active turn.

     Needs the `delete` session grant and a grant for the session's provider
    instance. An active turn is aborted, including a run still waiting for
    a run slot; its request answers `RUN_CANCELLED`. Deletion cannot undo
    external tool effects.

    Args:
        session_id (str):
        agentic_host (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        agentic_host=agentic_host,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    session_id: str,
    *,
    client: AuthenticatedClient | Client,
    agentic_host: str | Unset = UNSET,
) -> Any | Problem | None:
    """Delete a session and abort its active turn.

     Needs the `delete` session grant and a grant for the session's provider
    instance. An active turn is aborted, including a run still waiting for
    a run slot; its request answers `RUN_CANCELLED`. Deletion cannot undo
    external tool effects.

    Args:
        session_id (str):
        agentic_host (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return (
        await asyncio_detailed(
            session_id=session_id,
            client=client,
            agentic_host=agentic_host,
        )
    ).parsed
