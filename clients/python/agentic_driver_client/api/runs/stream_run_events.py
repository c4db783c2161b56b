# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.run_event_message import RunEventMessage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    run_id: str,
    *,
    last_event_id: str | Unset = UNSET,
    agentic_host: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["Last-Event-ID"] = last_event_id

    if not isinstance(agentic_host, Unset):
        headers["Agentic-Host"] = agentic_host

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/runs/{run_id}/events".format(
            run_id=quote(str(run_id), safe=""),
        ),
    }

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

    if response.status_code == 410:
        response_410 = Problem.from_dict(response.json())

        return response_410

    if response.status_code == 421:
        response_421 = Problem.from_dict(response.json())

        return response_421

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

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
    run_id: str,
    *,
    client: AuthenticatedClient | Client,
    last_event_id: str | Unset = UNSET,
    agentic_host: str | Unset = UNSET,
) -> Response[Problem | RunEventMessage]:
    """Rejoin a run's event stream after a Last-Event-ID.

     Replays the run's buffered events after the one named by
    `Last-Event-ID` (absent: from the first), each with the id its
    original stream carried, then follows the run live until it ends or
    pauses: the stream ends after `run.completed`, `run.requires_action`
    or `run.failed` (a cancellation is a `run.failed` with
    `RUN_CANCELLED`). A run that has already paused or ended replays up
    to that event and ends. Every event is sent once and in order;
    several readers may follow one run. Reading never stops the run: a
    reader that goes away is only a reader gone, whatever the run's
    `onDisconnect`. The same access and retention as `getRun`. A
    `Last-Event-ID` older than the oldest event still buffered is
    `RUN_EVENTS_EXPIRED` (410, with `firstEventId`): read `getRun` for the
    outcome, or rejoin from `firstEventId - 1` accepting the gap.

    Args:
        run_id (str):
        last_event_id (str | Unset):
        agentic_host (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RunEventMessage]
    """

    kwargs = _get_kwargs(
        run_id=run_id,
        last_event_id=last_event_id,
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
    last_event_id: str | Unset = UNSET,
    agentic_host: str | Unset = UNSET,
) -> Problem | RunEventMessage | None:
    """Rejoin a run's event stream after a Last-Event-ID.

     Replays the run's buffered events after the one named by
    `Last-Event-ID` (absent: from the first), each with the id its
    original stream carried, then follows the run live until it ends or
    pauses: the stream ends after `run.completed`, `run.requires_action`
    or `run.failed` (a cancellation is a `run.failed` with
    `RUN_CANCELLED`). A run that has already paused or ended replays up
    to that event and ends. Every event is sent once and in order;
    several readers may follow one run. Reading never stops the run: a
    reader that goes away is only a reader gone, whatever the run's
    `onDisconnect`. The same access and retention as `getRun`. A
    `Last-Event-ID` older than the oldest event still buffered is
    `RUN_EVENTS_EXPIRED` (410, with `firstEventId`): read `getRun` for the
    outcome, or rejoin from `firstEventId - 1` accepting the gap.

    Args:
        run_id (str):
        last_event_id (str | Unset):
        agentic_host (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RunEventMessage
    """

    return sync_detailed(
        run_id=run_id,
        client=client,
        last_event_id=last_event_id,
        agentic_host=agentic_host,
    ).parsed


async def asyncio_detailed(
    run_id: str,
    *,
    client: AuthenticatedClient | Client,
    last_event_id: str | Unset = UNSET,
    agentic_host: str | Unset = UNSET,
) -> Response[Problem | RunEventMessage]:
    """Rejoin a run's event stream after a Last-Event-ID.

     Replays the run's buffered events after the one named by
    `Last-Event-ID` (absent: from the first), each with the id its
    original stream carried, then follows the run live until it ends or
    pauses: the stream ends after `run.completed`, `run.requires_action`
    or `run.failed` (a cancellation is a `run.failed` with
    `RUN_CANCELLED`). A run that has already paused or ended replays up
    to that event and ends. Every event is sent once and in order;
    several readers may follow one run. Reading never stops the run: a
    reader that goes away is only a reader gone, whatever the run's
    `onDisconnect`. The same access and retention as `getRun`. A
    `Last-Event-ID` older than the oldest event still buffered is
    `RUN_EVENTS_EXPIRED` (410, with `firstEventId`): read `getRun` for the
    outcome, or rejoin from `firstEventId - 1` accepting the gap.

    Args:
        run_id (str):
        last_event_id (str | Unset):
        agentic_host (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RunEventMessage]
    """

    kwargs = _get_kwargs(
        run_id=run_id,
        last_event_id=last_event_id,
        agentic_host=agentic_host,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    run_id: str,
    *,
    client: AuthenticatedClient | Client,
    last_event_id: str | Unset = UNSET,
    agentic_host: str | Unset = UNSET,
) -> Problem | RunEventMessage | None:
    """Rejoin a run's event stream after a Last-Event-ID.

     Replays the run's buffered events after the one named by
    `Last-Event-ID` (absent: from the first), each with the id its
    original stream carried, then follows the run live until it ends or
    pauses: the stream ends after `run.completed`, `run.requires_action`
    or `run.failed` (a cancellation is a `run.failed` with
    `RUN_CANCELLED`). A run that has already paused or ended replays up
    to that event and ends. Every event is sent once and in order;
    several readers may follow one run. Reading never stops the run: a
    reader that goes away is only a reader gone, whatever the run's
    `onDisconnect`. The same access and retention as `getRun`. A
    `Last-Event-ID` older than the oldest event still buffered is
    `RUN_EVENTS_EXPIRED` (410, with `firstEventId`): read `getRun` for the
    outcome, or rejoin from `firstEventId - 1` accepting the gap.

    Args:
        run_id (str):
        last_event_id (str | Unset):
        agentic_host (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RunEventMessage
    """

    return (
        await asyncio_detailed(
            run_id=run_id,
            client=client,
            last_event_id=last_event_id,
            agentic_host=agentic_host,
        )
    ).parsed
