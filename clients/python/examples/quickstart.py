"""Quick start: a session of three turns, read back, then deleted.

make serve                               # in another terminal; it prints the token
export AGENTIC_DRIVER_URL=http://127.0.0.1:8080 AGENTIC_DRIVER_TOKEN=<that token>
.venv/bin/python clients/python/examples/quickstart.py
"""

from __future__ import annotations

from agentic_driver_sdk import AgenticDriver, SessionRevisionConflictError


def main() -> None:
    with AgenticDriver() as client:  # AGENTIC_DRIVER_URL and AGENTIC_DRIVER_TOKEN from the environment
        print("host:", client.discovery().host_id)
        session = client.sessions.create(provider="echo", model="echo-1", mode="history")
        print(f"created {session.id} at revision {session.revision}")

        first = client.run(provider="echo", model="echo-1", input="My name is Ada.", session=session)
        print(first.output.text)
        second = client.run(provider="echo", model="echo-1", input="!recall", session=first.session)
        print(second.output.text)

        try:  # a stale handle never forks the conversation: it is refused
            client.run(provider="echo", model="echo-1", input="from the past", session=session)
        except SessionRevisionConflictError as error:
            print(f"refused: {error.code}, the session is at revision {error.current_revision}")

        read = client.sessions.read(session.id)
        for message in read.history:
            print(f"  {message.role}: {message.content}")
        client.sessions.delete(session.id)
        print("deleted")


if __name__ == "__main__":
    main()
