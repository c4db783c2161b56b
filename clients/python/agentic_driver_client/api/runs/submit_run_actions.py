# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.run_result import RunResult
from ...models.submit_run_actions_request import SubmitRunActionsRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    run_id: str,
    *,
    body: SubmitRunActionsRequest,
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
        "url": "/v1/runs/{run_id}/actions".format(
            run_id=quote(str(run_id), safe=""),
        ),
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
    run_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: SubmitRunActionsRequest,
    idempotency_key: str | Unset = UNSET,
    agentic_host: str | Unset = UNSET,
) -> Response[Problem | RunResult]:
    """Continue a run that waits for function results or approvals.

     Answers the run's `requiredAction`: `functionResults` for
    `function_calls`, `approvals` for `approvals`, with exactly the call ids
    it asked for (otherwise `ACTION_MISMATCH`). The same turn continues and
    this request answers like `run`: completed, or waiting again. A run that
    is still active but waits for no action is `RUN_NOT_WAITING`; one that
    has finished (or never existed for this caller) is `RUN_NOT_FOUND`.
    Needs the run's provider grant and,
    for a session run, the `continue` grant.

    A waiting run has no connection to lose: the request that answered
    `requires_action` (or the stream that ended with `run.requires_action`)
    is over, and closing it changes nothing. The run stays the session's
    active turn, with retention suspended, until it is answered here,
    cancelled (`cancelRun`), its session deleted, or the host stops (reason
    `shutdown`). Losing the connection of this request once the turn
    continues is a disconnect after model work started: the session is
    interrupted (reason `disconnected`).

    Args:
        run_id (str):
        idempotency_key (str | Unset):
        agentic_host (str | Unset):
        body (SubmitRunActionsRequest): Exactly one of `functionResults` or `approvals`, matching
            the run's
            `requiredAction`, and optionally `onDisconnect` for the rest of the run.
            A body with both answers, or with neither, is `VALIDATION_ERROR`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RunResult]
    """

    kwargs = _get_kwargs(
        run_id=run_id,
        body=body,
        idempotency_key=idempotency_key,
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
    body: SubmitRunActionsRequest,
    idempotency_key: str | Unset = UNSET,
    agentic_host: str | Unset = UNSET,
) -> Problem | RunResult | None:
    """Continue a run that waits for function results or approvals.

     Answers the run's `requiredAction`: `functionResults` for
    `function_calls`, `approvals` for `approvals`, with exactly the call ids
    it asked for (otherwise `ACTION_MISMATCH`). The same turn continues and
    this request answers like `run`: completed, or waiting again. A run that
    is still active but waits for no action is `RUN_NOT_WAITING`; one that
    has finished (or never existed for this caller) is `RUN_NOT_FOUND`.
    Needs the run's provider grant and,
    for a session run, the `continue` grant.

    A waiting run has no connection to lose: the request that answered
    `requires_action` (or the stream that ended with `run.requires_action`)
    is over, and closing it changes nothing. The run stays the session's
    active turn, with retention suspended, until it is answered here,
    cancelled (`cancelRun`), its session deleted, or the host stops (reason
    `shutdown`). Losing the connection of this request once the turn
    continues is a disconnect after model work started: the session is
    interrupted (reason `disconnected`).

    Args:
        run_id (str):
        idempotency_key (str | Unset):
        agentic_host (str | Unset):
        body (SubmitRunActionsRequest): Exactly one of `functionResults` or `approvals`, matching
            the run's
            `requiredAction`, and optionally `onDisconnect` for the rest of the run.
            A body with both answers, or with neither, is `VALIDATION_ERROR`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RunResult
    """

    return sync_detailed(
        run_id=run_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
        agentic_host=agentic_host,
    ).parsed


async def asyncio_detailed(
    run_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: SubmitRunActionsRequest,
    idempotency_key: str | Unset = UNSET,
    agentic_host: str | Unset = UNSET,
) -> Response[Problem | RunResult]:
    """Continue a run that waits for function results or approvals.

     Answers the run's `requiredAction`: `functionResults` for
    `function_calls`, `approvals` for `approvals`, with exactly the call ids
    it asked for (otherwise `ACTION_MISMATCH`). The same turn continues and
    this request answers like `run`: completed, or waiting again. A run that
    is still active but waits for no action is `RUN_NOT_WAITING`; one that
    has finished (or never existed for this caller) is `RUN_NOT_FOUND`.
    Needs the run's provider grant and,
    for a session run, the `continue` grant.

    A waiting run has no connection to lose: the request that answered
    `requires_action` (or the stream that ended with `run.requires_action`)
    is over, and closing it changes nothing. The run stays the session's
    active turn, with retention suspended, until it is answered here,
    cancelled (`cancelRun`), its session deleted, or the host stops (reason
    `shutdown`). Losing the connection of this request once the turn
    continues is a disconnect after model work started: the session is
    interrupted (reason `disconnected`).

    Args:
        run_id (str):
        idempotency_key (str | Unset):
        agentic_host (str | Unset):
        body (SubmitRunActionsRequest): Exactly one of `functionResults` or `approvals`, matching
            the run's
            `requiredAction`, and optionally `onDisconnect` for the rest of the run.
            A body with both answers, or with neither, is `VALIDATION_ERROR`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RunResult]
    """

    kwargs = _get_kwargs(
        run_id=run_id,
        body=body,
        idempotency_key=idempotency_key,
        agentic_host=agentic_host,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    run_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: SubmitRunActionsRequest,
    idempotency_key: str | Unset = UNSET,
    agentic_host: str | Unset = UNSET,
) -> Problem | RunResult | None:
    """Continue a run that waits for function results or approvals.

     Answers the run's `requiredAction`: `functionResults` for
    `function_calls`, `approvals` for `approvals`, with exactly the call ids
    it asked for (otherwise `ACTION_MISMATCH`). The same turn continues and
    this request answers like `run`: completed, or waiting again. A run that
    is still active but waits for no action is `RUN_NOT_WAITING`; one that
    has finished (or never existed for this caller) is `RUN_NOT_FOUND`.
    Needs the run's provider grant and,
    for a session run, the `continue` grant.

    A waiting run has no connection to lose: the request that answered
    `requires_action` (or the stream that ended with `run.requires_action`)
    is over, and closing it changes nothing. The run stays the session's
    active turn, with retention suspended, until it is answered here,
    cancelled (`cancelRun`), its session deleted, or the host stops (reason
    `shutdown`). Losing the connection of this request once the turn
    continues is a disconnect after model work started: the session is
    interrupted (reason `disconnected`).

    Args:
        run_id (str):
        idempotency_key (str | Unset):
        agentic_host (str | Unset):
        body (SubmitRunActionsRequest): Exactly one of `functionResults` or `approvals`, matching
            the run's
            `requiredAction`, and optionally `onDisconnect` for the rest of the run.
            A body with both answers, or with neither, is `VALIDATION_ERROR`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RunResult
    """

    return (
        await asyncio_detailed(
            run_id=run_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
            agentic_host=agentic_host,
        )
    ).parsed
