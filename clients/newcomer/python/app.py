"""A newcomer's app: the Python SDK installed from a wheel, checked with mypy --strict, run against a live host.

    AGENTIC_DRIVER_URL=... AGENTIC_DRIVER_TOKEN=... python app.py

Each step asserts its result; any mismatch exits non-zero (``make newcomer-python``
runs this against a fresh install in a temporary directory).
"""

from __future__ import annotations

import sys
import threading
import time

from agentic_driver_client.models import OutputDeltaEvent, RunCompletedEvent, SessionInfo
from agentic_driver_sdk import (
    AgenticDriver,
    SessionBusyError,
    SessionNotFoundError,
    SessionRevisionConflictError,
    SessionRunResult,
)


def check(condition: bool, what: str) -> None:
    if not condition:
        sys.exit(f"newcomer-python: FAILED: {what}")
    print(f"ok  {what}")


def main() -> None:
    with AgenticDriver() as client:  # AGENTIC_DRIVER_URL / AGENTIC_DRIVER_TOKEN
        discovery = client.discovery()
        check(any(p.id == "echo" for p in discovery.providers), "discovery lists the echo provider")

        session: SessionInfo = client.sessions.create(provider="echo", model="echo-1", mode="history")
        check(session.revision == 0, f"created {session.id} at revision 0")

        first: SessionRunResult = client.run(provider="echo", model="echo-1", input="My name is Ada.", session=session)
        check(first.output.text == "echo: My name is Ada.", "first run answers")
        second = client.run(provider="echo", model="echo-1", input="!recall", session=first.session)
        check(second.output.text == "recall: 2 messages; last user: My name is Ada.", "!recall proves continuation")
        check(second.session.revision == 2, "the revision advanced twice")

        text = ""
        with client.runs.stream(
            provider="echo", model="echo-1", input="!chunks 3\none two three", session=second.session
        ) as stream:
            for event in stream:
                if isinstance(event, OutputDeltaEvent):
                    text += event.text
                elif isinstance(event, RunCompletedEvent):
                    check(event.run.status == "completed", "the stream's run.completed arrives")
        streamed = stream.final_run()
        check(text == "echo: one two three" == streamed.output.text, "the streamed deltas make the reply")
        check(streamed.session.revision == 3, "the streamed turn advanced the revision")

        try:
            client.run(provider="echo", model="echo-1", input="stale", session=session)  # revision 0 again
            check(False, "a stale revision is refused")
        except SessionRevisionConflictError as conflict:
            check(
                conflict.current_revision == 3, f"stale revision: typed conflict, current {conflict.current_revision}"
            )

        slow = threading.Thread(
            target=lambda: client.run(
                provider="echo", model="echo-1", input="!sleep 1500\nslow", session=streamed.session
            ),
            daemon=True,
        )
        slow.start()
        busy: SessionBusyError | None = None
        for _ in range(250):  # poll until the slow turn holds the session (bounded: 250 reads, about 5 s)
            if str(client.sessions.read(session.id).session.status) == "running":
                break
            time.sleep(0.02)
        try:
            client.run(provider="echo", model="echo-1", input="too soon", session=streamed.session)
        except SessionBusyError as error:
            busy = error
        check(busy is not None and busy.active_run_id.startswith("run_"), "a busy session: typed busy error")
        idle = client.sessions.wait_until_idle(session.id, busy=busy)
        check(str(idle.session.status) == "ready" and idle.session.revision == 4, "wait_until_idle: ready at 4")
        slow.join(10)

        read = client.sessions.read(session.id)
        check(len(read.history) == 8 and read.history[-1].content == "echo: slow", "read: 8 messages")

        with client.runs.stream(
            provider="echo",
            model="echo-1",
            input="!chunks 2\ngoes on",
            session=read.session,
            on_disconnect="continue",
        ) as resumable:
            for _ in resumable:
                pass
        done = resumable.final_run()
        check(done.session.revision == 5 and resumable.last_event_id == 4, "a continue stream: events 1..4")
        state = client.runs.retrieve(done.id)
        check(str(state.status) == "completed" and state.last_event_id == 4, "runs.retrieve: the run completed")
        with client.runs.events(done.id, last_event_id=2) as rest:
            replayed = [type(event).__name__ for event in rest]
        check(replayed == ["OutputDeltaEvent", "RunCompletedEvent"], "runs.events replays the events after 2")
        client.sessions.delete(session.id)
        try:
            client.sessions.read(session.id)
            check(False, "a deleted session is gone")
        except SessionNotFoundError:
            check(True, "deleted")


if __name__ == "__main__":
    main()
