"""A streaming chat in the terminal: each line you type is one turn; replies appear as they stream.

    .venv/bin/python clients/python/examples/chat.py          # Ctrl-D (or an empty line) ends
    printf 'Hi\n!recall\n' | .venv/bin/python clients/python/examples/chat.py

Uses AGENTIC_DRIVER_URL / AGENTIC_DRIVER_TOKEN; CHAT_PROVIDER and CHAT_MODEL
choose the model (default: the offline echo provider).
Ctrl-C during a reply leaves the stream, which interrupts the turn; the chat
then carries on in a fork of the conversation so far.
"""

from __future__ import annotations

import os
import sys

from agentic_driver_client.models import OutputDeltaEvent, SessionInfo
from agentic_driver_sdk import AgenticDriver, AgenticDriverError


def main() -> int:
    provider = os.environ.get("CHAT_PROVIDER", "echo")
    model = os.environ.get("CHAT_MODEL", "echo-1")
    with AgenticDriver() as client:
        session: SessionInfo = client.sessions.create(provider=provider, model=model, mode="history")
        print(f"chatting with {provider}/{model} in {session.id}; an empty line or Ctrl-D ends", file=sys.stderr)
        for line in sys.stdin:
            text = line.strip()
            if not text:
                break
            print("> ", end="", flush=True)
            try:
                with client.runs.stream(provider=provider, model=model, input=text, session=session) as stream:
                    for event in stream:
                        if isinstance(event, OutputDeltaEvent):
                            print(event.text, end="", flush=True)
                session = stream.final_run().session  # the next revision
            except AgenticDriverError as error:  # a refusal, or run.failed raised by final_run
                print(f"[failed: {error}]", end="")
            except KeyboardInterrupt:
                print(" [interrupted]", end="")
                session = client.fork(session.id)  # an explicit fork of the history so far
            print(flush=True)
        print(f"{session.revision} turns", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
