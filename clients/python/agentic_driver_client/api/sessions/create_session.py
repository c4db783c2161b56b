# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_session_request import CreateSessionRequest
from ...models.create_session_response import CreateSessionResponse
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CreateSessionRequest,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sessions",
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
    *,
    client: AuthenticatedClient | Client,
    body: CreateSessionRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[CreateSessionResponse | Problem]:
    """Create a session bound to the caller, a provider instance, its account and a model.

     Needs the `create` session grant and a grant for the provider instance.
    `mode` is explicit: `history` keeps visible user and assistant text;
    `native` also keeps the provider's own state inside the host. The
    optional `history` imports visible messages, bounded by the host's
    `maxMessages` and `maxRecordBytes`.

    Args:
        idempotency_key (str | Unset):
        body (CreateSessionRequest): A `nativeHistory` other than `full` needs `mode` native.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateSessionResponse | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: CreateSessionRequest,
    idempotency_key: str | Unset = UNSET,
) -> CreateSessionResponse | Problem | None:
    """Create a session bound to the caller, a provider instance, its account and a model.

     Needs the `create` session grant and a grant for the provider instance.
    `mode` is explicit: `history` keeps visible user and assistant text;
    `native` also keeps the provider's own state inside the host. The
    optional `history` imports visible messages, bounded by the host's
    `maxMessages` and `maxRecordBytes`.

    Args:
        idempotency_key (str | Unset):
        body (CreateSessionRequest): A `nativeHistory` other than `full` needs `mode` native.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateSessionResponse | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreateSessionRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[CreateSessionResponse | Problem]:
    """Create a session bound to the caller, a provider instance, its account and a model.

     Needs the `create` session grant and a grant for the provider instance.
    `mode` is explicit: `history` keeps visible user and assistant text;
    `native` also keeps the provider's own state inside the host. The
    optional `history` imports visible messages, bounded by the host's
    `maxMessages` and `maxRecordBytes`.

    Args:
        idempotency_key (str | Unset):
        body (CreateSessionRequest): A `nativeHistory` other than `full` needs `mode` native.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateSessionResponse | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: CreateSessionRequest,
    idempotency_key: str | Unset = UNSET,
) -> CreateSessionResponse | Problem | None:
    """Create a session bound to the caller, a provider instance, its account and a model.

     Needs the `create` session grant and a grant for the provider instance.
    `mode` is explicit: `history` keeps visible user and assistant text;
    `native` also keeps the provider's own state inside the host. The
    optional `history` imports visible messages, bounded by the host's
    `maxMessages` and `maxRecordBytes`.

    Args:
        idempotency_key (str | Unset):
        body (CreateSessionRequest): A `nativeHistory` other than `full` needs `mode` native.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateSessionResponse | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
