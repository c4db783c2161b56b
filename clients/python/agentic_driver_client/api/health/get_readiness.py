# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.readiness import Readiness
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/readyz",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | Readiness | None:
    if response.status_code == 200:
        response_200 = Readiness.from_dict(response.json())

        return response_200

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | Readiness]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Problem | Readiness]:
    """Report whether the host takes new work.

     200 while the host takes new sessions and stateless runs; `SHUTTING_DOWN`
    (503) from the moment it starts draining until it exits. A proxy in
    front of several hosts sends new work only to ready hosts, and keeps
    sending a draining host the requests for its own sessions and runs
    (`/healthz` stays the liveness check). `HEAD` answers the same status.
    A host that started from a restart snapshot says what it restored
    (`restored`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Readiness]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> Problem | Readiness | None:
    """Report whether the host takes new work.

     200 while the host takes new sessions and stateless runs; `SHUTTING_DOWN`
    (503) from the moment it starts draining until it exits. A proxy in
    front of several hosts sends new work only to ready hosts, and keeps
    sending a draining host the requests for its own sessions and runs
    (`/healthz` stays the liveness check). `HEAD` answers the same status.
    A host that started from a restart snapshot says what it restored
    (`restored`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Readiness
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Problem | Readiness]:
    """Report whether the host takes new work.

     200 while the host takes new sessions and stateless runs; `SHUTTING_DOWN`
    (503) from the moment it starts draining until it exits. A proxy in
    front of several hosts sends new work only to ready hosts, and keeps
    sending a draining host the requests for its own sessions and runs
    (`/healthz` stays the liveness check). `HEAD` answers the same status.
    A host that started from a restart snapshot says what it restored
    (`restored`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Readiness]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> Problem | Readiness | None:
    """Report whether the host takes new work.

     200 while the host takes new sessions and stateless runs; `SHUTTING_DOWN`
    (503) from the moment it starts draining until it exits. A proxy in
    front of several hosts sends new work only to ready hosts, and keeps
    sending a draining host the requests for its own sessions and runs
    (`/healthz` stays the liveness check). `HEAD` answers the same status.
    A host that started from a restart snapshot says what it restored
    (`restored`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Readiness
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
