"""A stream that survives a dropped connection (``on_disconnect="continue"``); ``runs.retrieve``, ``runs.events``.

    .venv/bin/python clients/python/examples/resume.py

By default a stream whose connection drops stops its run (a session turn whose
model work had started is then interrupted). A run sent with
``on_disconnect="continue"`` goes on without its client, and the client rejoins
its events by id (``Last-Event-ID``) by itself: the loop below sees every event
once, in order, although the connection is cut after the second event (a
transport that resets it, standing in for a flaky network).
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx

from agentic_driver_client.models import OutputDeltaEvent
from agentic_driver_sdk import AgenticDriver, RunEventsExpiredError


class CutsFirstStream(httpx.HTTPTransport):
    """Relays the first streamed run up to the end of its second event, then resets the connection."""

    def __init__(self) -> None:
        super().__init__()
        self.cut = False
        self.rejoined_after: list[str | None] = []
        """The ``Last-Event-ID`` of each rejoin the client made."""

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/events"):
            self.rejoined_after.append(request.headers.get("last-event-id"))
        response = super().handle_request(request)
        if request.url.path == "/v1/runs/stream" and not self.cut:
            self.cut = True
            return httpx.Response(response.status_code, headers=response.headers, stream=TwoEvents(response))
        return response


class TwoEvents(httpx.SyncByteStream):
    def __init__(self, response: httpx.Response) -> None:
        self.response = response

    def __iter__(self) -> Iterator[bytes]:
        buffer = b""
        for chunk in self.response.iter_raw():
            buffer += chunk
            if buffer.count(b"\n\nid: ") >= 2:  # the end of event 2 (the next one has begun)
                yield buffer[: buffer.index(b"\n\nid: ", buffer.index(b"\n\nid: ") + 1) + 2]
                self.response.close()
                raise httpx.ReadError("connection reset (simulated)")
        yield buffer


def main() -> None:
    with AgenticDriver() as client:
        options = client.options
        network = CutsFirstStream()
        flaky = AgenticDriver(base_url=options.base_url, token=options.token, transport=network)
        with flaky:
            session = flaky.sessions.create(provider="echo", model="echo-1", mode="history")
            text = "!chunks 4\n!sleep 20\nA reply in four pieces"
            with flaky.runs.stream(
                provider="echo", model="echo-1", input=text, session=session, on_disconnect="continue"
            ) as stream:
                for event in stream:
                    if isinstance(event, OutputDeltaEvent):
                        print(f"delta: {event.text!r}")
            result = stream.final_run()
        print(f"reply: {result.output.text!r} (revision {result.session.revision}, events 1..{stream.last_event_id})")
        print(f"the connection was cut after event 2; the client rejoined after {network.rejoined_after}")

        # The run stays readable for a while after its end: its state, and its events by id.
        state = client.runs.retrieve(result.id)
        print(f"run {state.status}: last event {state.last_event_id}, onDisconnect {state.on_disconnect}")
        try:
            with client.runs.events(result.id, last_event_id=4) as rest:
                print("events after 4:", [type(event).__name__ for event in rest])
        except RunEventsExpiredError as error:  # the host no longer holds them: read the run instead
            print(f"gone; the oldest held is {error.first_event_id}")
        client.sessions.delete(session.id)


if __name__ == "__main__":
    main()
