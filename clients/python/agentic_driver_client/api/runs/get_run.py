# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.run_state import RunState
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
        "method": "get",
        "url": "/v1/runs/{run_id}".format(
            run_id=quote(str(run_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | RunState | None:
    if response.status_code == 200:
        response_200 = RunState.from_dict(response.json())

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
) -> Response[Problem | RunState]:
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
) -> Response[Problem | RunState]:
    """Read a run's state and outcome.

     The run's `status`, its session at the current revision (a session
    run), its `RunResult` once it completed or paused, its problem once
    it failed or was cancelled, and the ids of its first still-buffered
    and last events. Runs are readable while they are active and for the
    host's `runs.retentionMs` after they end (at most `runs.maxEntries`
    ended runs, the oldest forgotten first), so an application whose
    answer was lost (a dropped `run`, a stream cut before its last event)
    can reconcile it without running the turn again. Only the subject
    that started the run reads it, with the run's provider grant and, for
    a session run, the `read` grant; any other caller, an unknown run and
    a forgotten one are `RUN_NOT_FOUND`.

    Args:
        run_id (str):
        agentic_host (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RunState]
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
) -> Problem | RunState | None:
    """Read a run's state and outcome.

     The run's `status`, its session at the current revision (a session
    run), its `RunResult` once it completed or paused, its problem once
    it failed or was cancelled, and the ids of its first still-buffered
    and last events. Runs are readable while they are active and for the
    host's `runs.retentionMs` after they end (at most `runs.maxEntries`
    ended runs, the oldest forgotten first), so an application whose
    answer was lost (a dropped `run`, a stream cut before its last event)
    can reconcile it without running the turn again. Only the subject
    that started the run reads it, with the run's provider grant and, for
    a session run, the `read` grant; any other caller, an unknown run and
    a forgotten one are `RUN_NOT_FOUND`.

    Args:
        run_id (str):
        agentic_host (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RunState
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
) -> Response[Problem | RunState]:
    """Read a run's state and outcome.

     The run's `status`, its session at the current revision (a session
    run), its `RunResult` once it completed or paused, its problem once
    it failed or was cancelled, and the ids of its first still-buffered
    and last events. Runs are readable while they are active and for the
    host's `runs.retentionMs` after they end (at most `runs.maxEntries`
    ended runs, the oldest forgotten first), so an application whose
    answer was lost (a dropped `run`, a stream cut before its last event)
    can reconcile it without running the turn again. Only the subject
    that started the run reads it, with the run's provider grant and, for
    a session run, the `read` grant; any other caller, an unknown run and
    a forgotten one are `RUN_NOT_FOUND`.

    Args:
        run_id (str):
        agentic_host (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RunState]
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
) -> Problem | RunState | None:
    """Read a run's state and outcome.

     The run's `status`, its session at the current revision (a session
    run), its `RunResult` once it completed or paused, its problem once
    it failed or was cancelled, and the ids of its first still-buffered
    and last events. Runs are readable while they are active and for the
    host's `runs.retentionMs` after they end (at most `runs.maxEntries`
    ended runs, the oldest forgotten first), so an application whose
    answer was lost (a dropped `run`, a stream cut before its last event)
    can reconcile it without running the turn again. Only the subject
    that started the run reads it, with the run's provider grant and, for
    a session run, the `read` grant; any other caller, an unknown run and
    a forgotten one are `RUN_NOT_FOUND`.

    Args:
        run_id (str):
        agentic_host (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RunState
    """

    return (
        await asyncio_detailed(
            run_id=run_id,
            client=client,
            agentic_host=agentic_host,
        )
    ).parsed
