"""Reconciliation after a lost response: did the turn land? Then go on, resend, or fork.

    .venv/bin/python clients/python/examples/reconcile.py

A connection can break after the host ran the turn, and the answer is lost.
Retries handle this by themselves (every attempt carries the same
Idempotency-Key, so the host replays the recorded answer instead of running
the turn again). When retries are exhausted or off, ``reconcile`` reads the
session and says what happened. Here the loss is simulated with a transport
that drops the first answer.
"""

from __future__ import annotations

import httpx

from agentic_driver_sdk import AgenticDriver, APIConnectionError, handle


class LosesFirstAnswer(httpx.HTTPTransport):
    """Delivers the first run to the host, then drops its answer (a broken connection)."""

    def __init__(self) -> None:
        super().__init__()
        self.lost = False

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        if request.url.path == "/v1/runs" and not self.lost:
            self.lost = True
            response.read()
            response.close()
            raise httpx.ReadError("connection reset (simulated)", request=request)
        return response


def main() -> None:
    with AgenticDriver() as client:
        session = client.sessions.create(provider="echo", model="echo-1", mode="history")
        sent = handle(session)  # {id, revision}: what the lost request was sent with (also session.handle)
        options = client.options
        fragile = AgenticDriver(
            base_url=options.base_url, token=options.token, transport=LosesFirstAnswer(), max_retries=0
        )
        with fragile:
            try:
                fragile.run(provider="echo", model="echo-1", input="Book the table for two.", session=sent)
            except APIConnectionError as error:
                print(f"lost the answer: {error}")

        state = client.reconcile(session.id, sent)
        if state.landed:
            print(f"it landed (revision {state.session.revision}); the reply was: {state.reply!r}")
            session = state.session
        elif state.interrupted is not None:
            print(f"it was interrupted ({state.interrupted.reason}); forking to go on")
            session = client.fork(session.id)
        else:
            print("it never arrived; sending it again")
            again = client.run(provider="echo", model="echo-1", input="Book the table for two.", session=state.session)
            print(again.output.text)
            session = client.sessions.read(session.id).session
        after = client.run(provider="echo", model="echo-1", input="!recall", session=session)
        print(after.output.text)


if __name__ == "__main__":
    main()
