"""``client.sessions`` and ``client.runs``, sync and async: each method names its plan and lets the client run it.

The request each method sends is built in ``_plans`` (the same for both
clients) and the arguments of a run are declared once, in ``_arguments``; the
two classes of a pair differ only by ``await``. The full description of each
call is on the sync method; the async one says what differs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Unpack, overload

from ._base import DEFAULT_IDLE_TIMEOUT, idle_schedule
from ._plans import plans

if TYPE_CHECKING:
    from agentic_driver_client.models import (
        CancelRunResponse,
        Message,
        ReadSessionResponse,
        RunResult,
        RunState,
        SessionInfo,
    )

    from ._arguments import Approvals, Disconnect, Handle, Results, RunArguments, SessionRunArguments
    from ._client import AgenticDriver, AsyncAgenticDriver
    from ._exceptions import SessionBusyError
    from ._models import SessionRunResult
    from ._stream import AsyncRunStream, RunStream

__all__ = ["AsyncRuns", "AsyncSessions", "Runs", "Sessions"]


class Sessions:
    """``client.sessions``: create, read, truncate, fork and delete sessions; wait until one is idle."""

    def __init__(self, client: AgenticDriver) -> None:
        self._client = client

    def create(
        self,
        *,
        provider: str,
        model: str,
        mode: str = "history",
        instructions: str | None = None,
        history: Sequence[Message | Mapping[str, Any]] | None = None,
        idempotency_key: str | None = None,
    ) -> SessionInfo:
        """Create a session (``createSession``); returns its ``SessionInfo`` at revision 0.

        ``mode`` is ``"history"`` (user text and final assistant text) or
        ``"native"`` (also the provider's own state, kept inside the host).
        ``history`` imports earlier messages as generated ``Message`` models or
        ``{"role": ..., "content": ...}`` dicts.

            session = client.sessions.create(provider="echo", model="echo-1", mode="history")
            print(session.id, session.revision)  # ses_..., 0
        """
        return self._client._call(
            plans.create_session(
                provider=provider,
                model=model,
                mode=mode,
                instructions=instructions,
                history=history,
                idempotency_key=idempotency_key,
            )
        )

    def read(self, session_id: str) -> ReadSessionResponse:
        """Metadata, instructions, visible history and turns (``readSession``); does not extend retention.

        read = client.sessions.read(session.id)
        for message in read.history:
            print(message.role, message.content)
        """
        return self._client._call(plans.read_session(session_id))

    def truncate(self, session: Handle, *, keep_turns: int) -> SessionInfo:
        """Keep only the first ``keep_turns`` turns (``truncateSession``); returns the session at its next revision.

        ``session`` is the handle you believe current (a stale one is
        ``SessionRevisionConflictError``); truncating an interrupted session makes
        it ready again. Sends no Idempotency-Key (the operation takes none).

            session = client.sessions.truncate(result.session, keep_turns=1)
        """
        return self._client._call(plans.truncate_session(session, keep_turns))

    def fork(
        self, session: str | Handle, *, revision: int | None = None, idempotency_key: str | None = None
    ) -> SessionInfo:
        """Copy the session up to a turn boundary into a new session on the same host (``forkSession``);
        returns the fork's ``SessionInfo``, at the boundary revision.

        ``session`` is its id, or anything ``truncate`` takes (a ``SessionInfo``, a
        ``SessionHandle``, ``{"id": ..., "revision": ...}``), of which only the id is
        read. ``revision`` is the boundary: None (the session's current revision), 0
        (the imported history only) or the revision of a turn still recorded; to fork
        the state you hold, pass ``revision=session.revision``. The fork has the
        source's provider, model, mode, instructions, history, turns and native
        state (copied inside the host) up to that revision, and its own accounting at
        zero; the source is unchanged, and the two continue independently.

        An active turn is ``SessionBusyError`` (never retried: ``wait_until_idle``),
        a boundary the session no longer holds (truncated, not yet reached)
        ``SessionRevisionConflictError`` (``.current_revision``). Like ``create`` it
        sends one Idempotency-Key on every attempt (``idempotency_key`` replaces the
        fresh one) and is retried as ``create`` is; like ``truncate`` it sends
        ``Agentic-Host`` from the session id. ``client.fork`` is another thing: a
        new session from the visible history you choose, optionally on another model.

            other = client.sessions.fork(result.session, revision=1)
            retry = client.run(provider="echo", model="echo-1", input="Let us try another way", session=other)
        """
        return self._client._call(plans.fork_session(session, revision, idempotency_key))

    def delete(self, session_id: str) -> None:
        """Delete the session and abort its active turn (``deleteSession``).

        A retry after a lost answer that finds the session gone counts as done.

            client.sessions.delete(session.id)
        """
        self._client._call(plans.delete_session(session_id))

    def wait_until_idle(
        self, session_id: str, *, busy: SessionBusyError | None = None, timeout: float = DEFAULT_IDLE_TIMEOUT
    ) -> ReadSessionResponse:
        """Wait until the session has no active turn; returns that read (current revision, history, turns).

        The helper for ``SESSION_BUSY``, which is never retried: retrying the same
        handle would meet a certain revision conflict once the busy turn completes.
        Waits ``busy.retry_after`` first (or 0.1 s), then reads, doubling the
        interval up to 1 s, for at most ``timeout`` seconds (then ``APITimeoutError``).
        Status ``ready`` or ``interrupted`` ends the wait; you decide what to send next.

            try:
                result = client.run(provider="echo", model="echo-1", input=text, session=session)
            except SessionBusyError as error:
                read = client.sessions.wait_until_idle(session.id, busy=error)
                result = client.run(provider="echo", model="echo-1", input=text, session=read.session)
        """
        for wait in idle_schedule(session_id, busy, timeout):
            self._client._pause(wait)
            read = self.read(session_id)
            if str(read.session.status) != "running":
                return read
        raise AssertionError("unreachable")  # pragma: no cover - idle_schedule ends by raising


class Runs:
    """``client.runs``: run turns (plain or streamed), answer required actions, read or rejoin a run, cancel."""

    def __init__(self, client: AgenticDriver) -> None:
        self._client = client

    @overload
    def create(self, *, session: Handle, **arguments: Unpack[SessionRunArguments]) -> SessionRunResult: ...

    @overload
    def create(self, *, session: None = None, **arguments: Unpack[RunArguments]) -> RunResult: ...

    def create(self, *, session: Handle | None = None, **arguments: Unpack[RunArguments]) -> RunResult:
        """Run one turn (``run``): stateless, or continuing ``session``.

        ``session`` is a ``SessionInfo`` (from ``sessions.create`` or a result's
        ``.session``), a ``SessionHandle`` or ``{"id": ..., "revision": ...}``; the
        result is then a ``SessionRunResult`` whose ``.session`` is the next revision.
        The other keyword arguments are declared once, in ``_arguments.RunArguments``:
        ``provider``, ``model`` and ``input``; ``tools`` declares functions the
        application runs itself (the result then has ``status == "requires_action"``);
        ``idle_timeout_ms`` bounds the provider's silence; ``action_timeout_ms`` ends
        such a run as cancelled (``action_timeout``) when a required action is not
        answered that long; ``on_disconnect="continue"`` lets the run go on when the
        connection drops (by default the host stops it), which makes a stream resume
        itself; ``idempotency_key`` replaces the fresh key of the call.
        Stateless runs only may send ``instructions``, ``history``, ``attachments``
        and ``retrieval`` (a session owns its context).

            result = client.runs.create(provider="echo", model="echo-1", input="Hi", session=session)
            print(result.output.text, result.session.revision)
        """
        return self._client._call(plans.run(session, arguments))

    @overload
    def stream(self, *, session: Handle, **arguments: Unpack[SessionRunArguments]) -> RunStream[SessionRunResult]: ...

    @overload
    def stream(self, *, session: None = None, **arguments: Unpack[RunArguments]) -> RunStream[RunResult]: ...

    def stream(
        self, *, session: Handle | None = None, **arguments: Unpack[RunArguments]
    ) -> RunStream[RunResult] | RunStream[SessionRunResult]:
        """``streamRun``: one turn as a ``RunStream`` of typed events; the same arguments as ``create``.

        The request is sent when the stream is entered or first iterated. A refusal
        before the stream starts raises the same errors as ``create``. Sent with
        ``on_disconnect="continue"``, the stream resumes itself after a dropped
        connection (``Last-Event-ID``), each event delivered once, in order.

            from agentic_driver_client.models import OutputDeltaEvent

            with client.runs.stream(provider="echo", model="echo-1", input="Hi", session=session) as stream:
                for event in stream:
                    if isinstance(event, OutputDeltaEvent):
                        print(event.text, end="", flush=True)
            session = stream.final_run().session
        """
        return self._client._stream(plans.run(session, arguments, stream=True))

    def submit_actions(
        self,
        run_id: str,
        *,
        function_results: Results | None = None,
        approvals: Approvals | None = None,
        on_disconnect: Disconnect | None = None,
        idempotency_key: str | None = None,
    ) -> RunResult:
        """Answer a run waiting in ``requires_action`` (``submitRunActions``).

        ``function_results`` answers function calls (``{call_id: output}`` or
        ``[{"callId": ..., "output": ...}]``); ``approvals`` answers host-tool
        approvals (``{call_id: True}`` or ``[{"callId": ..., "approve": False, "reason": ...}]``).
        ``on_disconnect`` applies from this answer on (absent, the run keeps its own).
        The result is a ``SessionRunResult`` when the run had a session.

            result = client.runs.submit_actions(result.id, function_results={call_id: "42"})
        """
        plan = plans.submit_actions(run_id, function_results, approvals, idempotency_key, on_disconnect=on_disconnect)
        return self._client._call(plan)

    def stream_actions(
        self,
        run_id: str,
        *,
        function_results: Results | None = None,
        approvals: Approvals | None = None,
        on_disconnect: Disconnect | None = None,
        idempotency_key: str | None = None,
    ) -> RunStream[RunResult]:
        """``streamRunActions``: answer a waiting run and stream the rest of its turn (a ``RunStream``).

        with client.runs.stream_actions(run_id, function_results={call_id: "42"}) as stream:
            for event in stream:
                ...

        With ``on_disconnect="continue"`` it resumes itself after a dropped connection, as ``stream`` does.
        """
        plan = plans.submit_actions(
            run_id, function_results, approvals, idempotency_key, on_disconnect=on_disconnect, stream=True
        )
        return self._client._stream(plan)

    def retrieve(self, run_id: str) -> RunState:
        """A run's state and outcome (``getRun``): while it is active, and for the host's ``runs.retentionMs``
        after its end.

        ``status`` (``queued``, ``running``, ``requires_action``, ``completed``, ``failed``,
        ``cancelled``), its ``session`` at the current revision, its ``result`` once it
        completed or paused, its ``problem`` once it failed or was cancelled, and the ids
        of its first still-buffered and last events. For an answer that was lost, or a
        stream that could not be resumed (``RunEventsExpiredError``).

            state = client.runs.retrieve(run_id)
            if str(state.status) == "completed":
                print(state.result.output.text)
        """
        return self._client._call(plans.get_run(run_id))

    def events(self, run_id: str, *, last_event_id: int | None = None) -> RunStream[RunResult]:
        """``streamRunEvents``: the run's events after ``last_event_id`` (None: from its first), replayed with
        their original ids, then followed live to its next pause or its end; a ``RunStream``.

        Reading never stops the run, so this stream always resumes itself after a dropped
        connection. Events after ``last_event_id`` that the host no longer buffers raise
        ``RunEventsExpiredError`` (``.first_event_id``): read the run with ``retrieve``.

            with client.runs.events(run_id, last_event_id=stream.last_event_id) as rest:
                for event in rest:
                    ...
            result = rest.final_run()
        """
        return self._client._stream(plans.run_events(run_id, last_event_id))

    def cancel(self, run_id: str) -> CancelRunResponse:
        """Cancel an active run of yours (``cancelRun``; sends no Idempotency-Key).

        Before model work started the session stays ``ready``; after, it is
        ``interrupted``. The run's own request gets ``RunCancelledError``.

            cancelled = client.runs.cancel(run_id)
        """
        return self._client._call(plans.cancel(run_id))


class AsyncSessions:
    """``client.sessions`` of ``AsyncAgenticDriver``: the methods of ``Sessions``, awaited."""

    def __init__(self, client: AsyncAgenticDriver) -> None:
        self._client = client

    async def create(
        self,
        *,
        provider: str,
        model: str,
        mode: str = "history",
        instructions: str | None = None,
        history: Sequence[Message | Mapping[str, Any]] | None = None,
        idempotency_key: str | None = None,
    ) -> SessionInfo:
        """Create a session (``createSession``), as ``Sessions.create``.

        session = await client.sessions.create(provider="echo", model="echo-1", mode="history")
        """
        return await self._client._call(
            plans.create_session(
                provider=provider,
                model=model,
                mode=mode,
                instructions=instructions,
                history=history,
                idempotency_key=idempotency_key,
            )
        )

    async def read(self, session_id: str) -> ReadSessionResponse:
        """Metadata, instructions, visible history and turns (``readSession``), as ``Sessions.read``.

        read = await client.sessions.read(session.id)
        """
        return await self._client._call(plans.read_session(session_id))

    async def truncate(self, session: Handle, *, keep_turns: int) -> SessionInfo:
        """Keep only the first ``keep_turns`` turns (``truncateSession``), as ``Sessions.truncate``.

        session = await client.sessions.truncate(result.session, keep_turns=1)
        """
        return await self._client._call(plans.truncate_session(session, keep_turns))

    async def fork(
        self, session: str | Handle, *, revision: int | None = None, idempotency_key: str | None = None
    ) -> SessionInfo:
        """Copy the session up to a turn boundary into a new session on the same host (``forkSession``),
        as ``Sessions.fork``.

        other = await client.sessions.fork(result.session, revision=1)
        """
        return await self._client._call(plans.fork_session(session, revision, idempotency_key))

    async def delete(self, session_id: str) -> None:
        """Delete the session and abort its active turn (``deleteSession``), as ``Sessions.delete``.

        await client.sessions.delete(session.id)
        """
        await self._client._call(plans.delete_session(session_id))

    async def wait_until_idle(
        self,
        session_id: str,
        *,
        busy: SessionBusyError | None = None,
        timeout: float = DEFAULT_IDLE_TIMEOUT,  # noqa: ASYNC109 - the bound of clients/BEHAVIOUR.md, as in the sync form
    ) -> ReadSessionResponse:
        """Wait until the session has no active turn, as ``Sessions.wait_until_idle`` (waits are ``asyncio.sleep``).

        try:
            result = await client.run(provider="echo", model="echo-1", input=text, session=session)
        except SessionBusyError as error:
            read = await client.sessions.wait_until_idle(session.id, busy=error)
            result = await client.run(provider="echo", model="echo-1", input=text, session=read.session)
        """
        for wait in idle_schedule(session_id, busy, timeout):
            await self._client._pause(wait)
            read = await self.read(session_id)
            if str(read.session.status) != "running":
                return read
        raise AssertionError("unreachable")  # pragma: no cover - idle_schedule ends by raising


class AsyncRuns:
    """``client.runs`` of ``AsyncAgenticDriver``: the methods of ``Runs``, awaited; streams are ``AsyncRunStream``."""

    def __init__(self, client: AsyncAgenticDriver) -> None:
        self._client = client

    @overload
    async def create(self, *, session: Handle, **arguments: Unpack[SessionRunArguments]) -> SessionRunResult: ...

    @overload
    async def create(self, *, session: None = None, **arguments: Unpack[RunArguments]) -> RunResult: ...

    async def create(self, *, session: Handle | None = None, **arguments: Unpack[RunArguments]) -> RunResult:
        """Run one turn (``run``), as ``Runs.create``: stateless, or continuing ``session``.

        result = await client.runs.create(provider="echo", model="echo-1", input="Hi", session=session)
        print(result.output.text, result.session.revision)
        """
        return await self._client._call(plans.run(session, arguments))

    @overload
    def stream(
        self, *, session: Handle, **arguments: Unpack[SessionRunArguments]
    ) -> AsyncRunStream[SessionRunResult]: ...

    @overload
    def stream(self, *, session: None = None, **arguments: Unpack[RunArguments]) -> AsyncRunStream[RunResult]: ...

    def stream(
        self, *, session: Handle | None = None, **arguments: Unpack[RunArguments]
    ) -> AsyncRunStream[RunResult] | AsyncRunStream[SessionRunResult]:
        """``streamRun`` as an ``AsyncRunStream``, as ``Runs.stream`` (the same arguments as ``create``).

        from agentic_driver_client.models import OutputDeltaEvent

        async with client.runs.stream(provider="echo", model="echo-1", input="Hi", session=session) as stream:
            async for event in stream:
                if isinstance(event, OutputDeltaEvent):
                    print(event.text, end="", flush=True)
        session = (await stream.final_run()).session
        """
        return self._client._stream(plans.run(session, arguments, stream=True))

    async def submit_actions(
        self,
        run_id: str,
        *,
        function_results: Results | None = None,
        approvals: Approvals | None = None,
        on_disconnect: Disconnect | None = None,
        idempotency_key: str | None = None,
    ) -> RunResult:
        """Answer a run waiting in ``requires_action`` (``submitRunActions``), as ``Runs.submit_actions``.

        result = await client.runs.submit_actions(result.id, function_results={call_id: "42"})
        """
        plan = plans.submit_actions(run_id, function_results, approvals, idempotency_key, on_disconnect=on_disconnect)
        return await self._client._call(plan)

    def stream_actions(
        self,
        run_id: str,
        *,
        function_results: Results | None = None,
        approvals: Approvals | None = None,
        on_disconnect: Disconnect | None = None,
        idempotency_key: str | None = None,
    ) -> AsyncRunStream[RunResult]:
        """``streamRunActions`` as an ``AsyncRunStream``, as ``Runs.stream_actions``.

        async with client.runs.stream_actions(run_id, function_results={call_id: "42"}) as stream:
            async for event in stream:
                ...
        """
        plan = plans.submit_actions(
            run_id, function_results, approvals, idempotency_key, on_disconnect=on_disconnect, stream=True
        )
        return self._client._stream(plan)

    async def retrieve(self, run_id: str) -> RunState:
        """A run's state and outcome (``getRun``), as ``Runs.retrieve``.

        state = await client.runs.retrieve(run_id)
        """
        return await self._client._call(plans.get_run(run_id))

    def events(self, run_id: str, *, last_event_id: int | None = None) -> AsyncRunStream[RunResult]:
        """``streamRunEvents`` as an ``AsyncRunStream``, as ``Runs.events``.

        async with client.runs.events(run_id, last_event_id=stream.last_event_id) as rest:
            async for event in rest:
                ...
        """
        return self._client._stream(plans.run_events(run_id, last_event_id))

    async def cancel(self, run_id: str) -> CancelRunResponse:
        """Cancel an active run of yours (``cancelRun``), as ``Runs.cancel``.

        cancelled = await client.runs.cancel(run_id)
        """
        return await self._client._call(plans.cancel(run_id))
