# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.cancel_run_response import CancelRunResponse
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    run_id: str,
    *,
    agentic_host: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(agentic_host, Unset):
        headers["Agentic-Host"] = agentic_host

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/runs/{run_id}/cancel".format(
            run_id=quote(str(run_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CancelRunResponse | Problem | None:
    if response.status_code == 200:
        response_200 = CancelRunResponse.from_dict(response.json())

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

    if response.status_code == 421:
        response_421 = Problem.from_dict(response.json())

        return response_421

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[CancelRunResponse | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    run_id: str,
    *,
    client: AuthenticatedClient | Client,
    agentic_host: str | Unset = UNSET,
) -> Response[CancelRunResponse | Problem]:
    """Cancel an active run of the caller.

     Cancels a run that is waiting for a run slot or running. Cancelled
    before model work started, its session returns to `ready`; after,
    the session becomes `interrupted`. The cancelled run's own request
    answers `RUN_CANCELLED`. The answer to this request reports the
    session as it is once the cancellation has settled. Cancelling a
    session run needs the `continue` grant; every run needs its
    provider grant. A run of another subject, or one that is no longer
    active, is `RUN_NOT_FOUND`.

    Args:
        run_id (str):
        agentic_host (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CancelRunResponse | Problem]
    """

    kwargs = _get_kwargs(
        run_id=run_id,
        agentic_host=agentic_host,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    run_id: str,
    *,
    client: AuthenticatedClient | Client,
    agentic_host: str | Unset = UNSET,
) -> CancelRunResponse | Problem | None:
    """Cancel an active run of the caller.

     Cancels a run that is waiting for a run slot or running. Cancelled
    before model work started, its session returns to `ready`; after,
    the session becomes `interrupted`. The cancelled run's own request
    answers `RUN_CANCELLED`. The answer to this request reports the
    session as it is once the cancellation has settled. Cancelling a
    session run needs the `continue` grant; every run needs its
    provider grant. A run of another subject, or one that is no longer
    active, is `RUN_NOT_FOUND`.

    Args:
        run_id (str):
        agentic_host (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CancelRunResponse | Problem
    """

    return sync_detailed(
        run_id=run_id,
        client=client,
        agentic_host=agentic_host,
    ).parsed


async def asyncio_detailed(
    run_id: str,
    *,
    client: AuthenticatedClient | Client,
    agentic_host: str | Unset = UNSET,
) -> Response[CancelRunResponse | Problem]:
    """Cancel an active run of the caller.

     Cancels a run that is waiting for a run slot or running. Cancelled
    before model work started, its session returns to `ready`; after,
    the session becomes `interrupted`. The cancelled run's own request
    answers `RUN_CANCELLED`. The answer to this request reports the
    session as it is once the cancellation has settled. Cancelling a
    session run needs the `continue` grant; every run needs its
    provider grant. A run of another subject, or one that is no longer
    active, is `RUN_NOT_FOUND`.

    Args:
        run_id (str):
        agentic_host (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CancelRunResponse | Problem]
    """

    kwargs = _get_kwargs(
        run_id=run_id,
        agentic_host=agentic_host,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    run_id: str,
    *,
    client: AuthenticatedClient | Client,
    agentic_host: str | Unset = UNSET,
) -> CancelRunResponse | Problem | None:
    """Cancel an active run of the caller.

     Cancels a run that is waiting for a run slot or running. Cancelled
    before model work started, its session returns to `ready`; after,
    the session becomes `interrupted`. The cancelled run's own request
    answers `RUN_CANCELLED`. The answer to this request reports the
    session as it is once the cancellation has settled. Cancelling a
    session run needs the `continue` grant; every run needs its
    provider grant. A run of another subject, or one that is no longer
    active, is `RUN_NOT_FOUND`.

    Args:
        run_id (str):
        agentic_host (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CancelRunResponse | Problem
    """

    return (
        await asyncio_detailed(
            run_id=run_id,
            client=client,
            agentic_host=agentic_host,
        )
    ).parsed
