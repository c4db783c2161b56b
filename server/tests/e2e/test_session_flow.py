"""The ordinary session life: create, run, run again with history, read, delete; and stateless runs."""

from __future__ import annotations

from datetime import datetime

from agentic_driver_client.api.runs import run
from agentic_driver_client.api.sessions import delete_session, read_session
from agentic_driver_client.types import Unset

from .conftest import (
    ALICE,
    RETENTION_MS,
    TIMESTAMP,
    Host,
    assert_problem,
    body_of,
    messages,
    new_session,
    read_ok,
    run_ok,
    run_request,
)


def _ms(text: str) -> int:
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)


def test_create_run_recall_read_delete(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        created = new_session(alice, instructions="Be brief.")
        assert created.revision == 0
        assert created.status.value == "ready"
        assert (created.provider, created.model, created.mode.value) == ("echo", "echo-1", "history")
        assert created.message_count == 0
        assert created.host_id == "e2e-main"

        first = run_ok(alice, run_request("My name is Ada.", created))
        assert first.status.value == "completed"
        assert first.output.text == "echo: My name is Ada."
        # echo usage: words of instructions + earlier messages + input; words of the reply
        assert (first.usage.input_tokens, first.usage.output_tokens) == (2 + 4, 5)
        assert not isinstance(first.session, Unset)
        assert (first.session.id, first.session.revision, first.session.message_count) == (created.id, 1, 2)

        second = run_ok(alice, run_request("!recall", first.session))
        assert second.output.text == "recall: 2 messages; last user: My name is Ada."
        assert not isinstance(second.session, Unset)
        assert second.session.revision == 2

        response = read_session.sync_detailed(created.id, client=alice)
        assert response.status_code == 200
        raw = body_of(response)
        read = read_ok(alice, created.id)
        assert read.instructions == "Be brief."
        assert [(m.role.value, m.content) for m in read.history] == [
            ("user", "My name is Ada."),
            ("assistant", "echo: My name is Ada."),
            ("user", "!recall"),
            ("assistant", "recall: 2 messages; last user: My name is Ada."),
        ]
        assert [(t.revision, t.run_id, t.start, t.end) for t in read.turns] == [
            (1, first.id, 0, 2),
            (2, second.id, 2, 4),
        ]
        assert read.session.revision == 2
        assert read.session.status.value == "ready"
        assert read.session.message_count == 4
        assert isinstance(read.interrupted_turn, Unset)
        stamps = [raw["session"]["createdAt"], raw["session"]["updatedAt"], raw["session"]["expiresAt"]]
        stamps += [turn["at"] for turn in raw["turns"]]
        for stamp in stamps:
            assert TIMESTAMP.match(stamp), stamp
        assert _ms(raw["session"]["expiresAt"]) - _ms(raw["session"]["updatedAt"]) == RETENTION_MS
        assert raw["session"]["updatedAt"] == raw["turns"][-1]["at"]
        assert _ms(raw["session"]["createdAt"]) <= _ms(raw["turns"][0]["at"]) <= _ms(raw["turns"][1]["at"])

        deleted = delete_session.sync_detailed(created.id, client=alice)
        assert deleted.status_code == 204
        assert deleted.content == b""
        assert_problem(read_session.sync_detailed(created.id, client=alice), 404, "SESSION_NOT_FOUND")
        assert_problem(delete_session.sync_detailed(created.id, client=alice), 404, "SESSION_NOT_FOUND")
        assert_problem(
            run.sync_detailed(client=alice, body=run_request("Still there?", second.session)),
            404,
            "SESSION_NOT_FOUND",
        )


def test_stateless_run_sends_its_own_context(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        stored_before = main_host.sessions_stored()
        result = run_ok(
            alice,
            run_request(
                "!recall",
                instructions="Answer briefly.",
                history=messages("My name is Ada.", "Nice to meet you, Ada."),
            ),
        )
        assert result.output.text == "recall: 2 messages; last user: My name is Ada."
        assert result.usage.input_tokens == 2 + 4 + 5 + 1
        assert isinstance(result.session, Unset)
        assert result.id.startswith("run_")

        plain = run_ok(alice, run_request("Hello there"))
        assert plain.output.text == "echo: Hello there"
        assert plain.id != result.id
        # nothing is remembered between stateless runs
        assert run_ok(alice, run_request("!recall")).output.text == "recall: 0 messages; last user: (none)"
        # None was stored. (At most as many as before: the shared host's older sessions may expire meanwhile.)
        assert main_host.sessions_stored() <= stored_before


def test_imported_history_is_seen_and_turns_record_only_new_messages(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        created = new_session(alice, history=messages("My name is Ada.", "Nice to meet you, Ada."))
        assert created.message_count == 2
        result = run_ok(alice, run_request("!recall", created))
        assert result.output.text == "recall: 2 messages; last user: My name is Ada."
        read = read_ok(alice, created.id)
        assert read.instructions is None
        assert [m.content for m in read.history][:2] == ["My name is Ada.", "Nice to meet you, Ada."]
        assert [(t.revision, t.start, t.end) for t in read.turns] == [(1, 2, 4)]
        assert delete_session.sync_detailed(created.id, client=alice).status_code == 204


def test_read_does_not_extend_retention(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        created = new_session(alice)
        first = body_of(read_session.sync_detailed(created.id, client=alice))["session"]
        again = body_of(read_session.sync_detailed(created.id, client=alice))["session"]
        assert (again["updatedAt"], again["expiresAt"]) == (first["updatedAt"], first["expiresAt"])
        assert _ms(first["expiresAt"]) - _ms(first["createdAt"]) == RETENTION_MS
        # a completed turn restarts the idle period from its end
        result = run_ok(alice, run_request("Hi", created))
        assert not isinstance(result.session, Unset)
        after = body_of(read_session.sync_detailed(created.id, client=alice))["session"]
        assert _ms(after["expiresAt"]) - _ms(after["updatedAt"]) == RETENTION_MS
        assert _ms(after["expiresAt"]) >= _ms(first["expiresAt"])
        assert delete_session.sync_detailed(created.id, client=alice).status_code == 204
