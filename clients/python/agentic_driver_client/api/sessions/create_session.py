# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_session_invalid_problem import CreateSessionInvalidProblem
from ...models.create_session_not_found_problem import CreateSessionNotFoundProblem
from ...models.create_session_request import CreateSessionRequest
from ...models.create_session_response import CreateSessionResponse
from ...models.payload_too_large_problem import PayloadTooLargeProblem
from ...models.permission_denied_problem import PermissionDeniedProblem
from ...models.session_account_required_problem import SessionAccountRequiredProblem
from ...models.session_store_full_problem import SessionStoreFullProblem
from ...models.sessions_disabled_problem import SessionsDisabledProblem
from ...models.unauthenticated_problem import UnauthenticatedProblem
from ...models.unsupported_media_type_problem import UnsupportedMediaTypeProblem
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
) -> (
    CreateSessionInvalidProblem
    | CreateSessionNotFoundProblem
    | CreateSessionResponse
    | PayloadTooLargeProblem
    | PermissionDeniedProblem
    | SessionAccountRequiredProblem
    | SessionStoreFullProblem
    | SessionsDisabledProblem
    | UnauthenticatedProblem
    | UnsupportedMediaTypeProblem
    | None
):
    if response.status_code == 201:
        response_201 = CreateSessionResponse.from_dict(response.json())

        return response_201

    if response.status_code == 401:
        response_401 = UnauthenticatedProblem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = PermissionDeniedProblem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = CreateSessionNotFoundProblem.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = SessionAccountRequiredProblem.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = PayloadTooLargeProblem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = UnsupportedMediaTypeProblem.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = CreateSessionInvalidProblem.from_dict(response.json())

        return response_422

    if response.status_code == 501:
        response_501 = SessionsDisabledProblem.from_dict(response.json())

        return response_501

    if response.status_code == 503:
        response_503 = SessionStoreFullProblem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    CreateSessionInvalidProblem
    | CreateSessionNotFoundProblem
    | CreateSessionResponse
    | PayloadTooLargeProblem
    | PermissionDeniedProblem
    | SessionAccountRequiredProblem
    | SessionStoreFullProblem
    | SessionsDisabledProblem
    | UnauthenticatedProblem
    | UnsupportedMediaTypeProblem
]:
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
) -> Response[
    CreateSessionInvalidProblem
    | CreateSessionNotFoundProblem
    | CreateSessionResponse
    | PayloadTooLargeProblem
    | PermissionDeniedProblem
    | SessionAccountRequiredProblem
    | SessionStoreFullProblem
    | SessionsDisabledProblem
    | UnauthenticatedProblem
    | UnsupportedMediaTypeProblem
]:
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
        Response[CreateSessionInvalidProblem | CreateSessionNotFoundProblem | CreateSessionResponse | PayloadTooLargeProblem | PermissionDeniedProblem | SessionAccountRequiredProblem | SessionStoreFullProblem | SessionsDisabledProblem | UnauthenticatedProblem | UnsupportedMediaTypeProblem]
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
) -> (
    CreateSessionInvalidProblem
    | CreateSessionNotFoundProblem
    | CreateSessionResponse
    | PayloadTooLargeProblem
    | PermissionDeniedProblem
    | SessionAccountRequiredProblem
    | SessionStoreFullProblem
    | SessionsDisabledProblem
    | UnauthenticatedProblem
    | UnsupportedMediaTypeProblem
    | None
):
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
        CreateSessionInvalidProblem | CreateSessionNotFoundProblem | CreateSessionResponse | PayloadTooLargeProblem | PermissionDeniedProblem | SessionAccountRequiredProblem | SessionStoreFullProblem | SessionsDisabledProblem | UnauthenticatedProblem | UnsupportedMediaTypeProblem
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
) -> Response[
    CreateSessionInvalidProblem
    | CreateSessionNotFoundProblem
    | CreateSessionResponse
    | PayloadTooLargeProblem
    | PermissionDeniedProblem
    | SessionAccountRequiredProblem
    | SessionStoreFullProblem
    | SessionsDisabledProblem
    | UnauthenticatedProblem
    | UnsupportedMediaTypeProblem
]:
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
        Response[CreateSessionInvalidProblem | CreateSessionNotFoundProblem | CreateSessionResponse | PayloadTooLargeProblem | PermissionDeniedProblem | SessionAccountRequiredProblem | SessionStoreFullProblem | SessionsDisabledProblem | UnauthenticatedProblem | UnsupportedMediaTypeProblem]
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
) -> (
    CreateSessionInvalidProblem
    | CreateSessionNotFoundProblem
    | CreateSessionResponse
    | PayloadTooLargeProblem
    | PermissionDeniedProblem
    | SessionAccountRequiredProblem
    | SessionStoreFullProblem
    | SessionsDisabledProblem
    | UnauthenticatedProblem
    | UnsupportedMediaTypeProblem
    | None
):
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
        CreateSessionInvalidProblem | CreateSessionNotFoundProblem | CreateSessionResponse | PayloadTooLargeProblem | PermissionDeniedProblem | SessionAccountRequiredProblem | SessionStoreFullProblem | SessionsDisabledProblem | UnauthenticatedProblem | UnsupportedMediaTypeProblem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
