"""Native sessions: the provider's own signed items stay inside the host; the history shows visible text only."""

from __future__ import annotations

from agentic_driver_client.api.sessions import delete_session, read_session
from agentic_driver_client.types import Unset

from .conftest import ALICE, Host, body_of, messages, new_session, read_ok, run_ok, run_request, visible_bytes


def _conversation(host: Host, mode: str) -> tuple[str, list[str]]:
    """Two turns in a fresh session of ``mode``; returns its id and the !recall answer."""
    with host.client(ALICE) as alice:
        session = new_session(alice, mode=mode)
        assert session.mode.value == mode
        first = run_ok(alice, run_request("My name is Ada.", session))
        assert first.output.text == "echo: My name is Ada."
        assert not isinstance(first.session, Unset)
        second = run_ok(alice, run_request("!recall", first.session))
        assert not isinstance(second.session, Unset)
        assert second.session.revision == 2
        return session.id, [first.output.text, second.output.text]


def test_native_round_trip(main_host: Host) -> None:
    native_id, native_replies = _conversation(main_host, "native")
    history_id, history_replies = _conversation(main_host, "history")
    assert native_replies[1] == "recall: 2 messages; last user: My name is Ada."
    assert native_replies == history_replies  # the model saw the same conversation either way

    with main_host.client(ALICE) as alice:
        native = read_ok(alice, native_id)
        history = read_ok(alice, history_id)
        visible = [
            ("user", "My name is Ada."),
            ("assistant", "echo: My name is Ada."),
            ("user", "!recall"),
            ("assistant", "recall: 2 messages; last user: My name is Ada."),
        ]
        assert [(m.role.value, m.content) for m in native.history] == visible
        assert [(m.role.value, m.content) for m in history.history] == visible
        assert [(t.revision, t.start, t.end) for t in native.turns] == [(1, 0, 2), (2, 2, 4)]

        # history mode counts exactly the visible messages; native mode also keeps signed provider items
        visible_total = sum(visible_bytes(role, content) for role, content in visible)
        assert history.session.record_bytes == visible_total
        assert native.session.record_bytes > visible_total + 100
        assert native.session.message_count == history.session.message_count == 4

        # nothing provider-private leaks into the read answer
        raw = body_of(read_session.sync_detailed(native_id, client=alice))
        text = str(raw)
        assert "signature" not in text and "considered" not in text  # no signed or reasoning item
        # "reasoning" appears only as the accounting key reasoningTokens, never as an item
        assert "reasoning" not in str({key: value for key, value in raw.items() if key != "session"})
        assert "reasoning" not in str({k: v for k, v in raw["session"].items() if k != "usage"})
        assert set(raw) <= {"session", "instructions", "history", "turns", "interruptedTurn"}
        assert all(set(m) == {"role", "content"} for m in raw["history"])

        for session_id in (native_id, history_id):
            assert delete_session.sync_detailed(session_id, client=alice).status_code == 204


def test_native_session_with_imported_history(main_host: Host) -> None:
    with main_host.client(ALICE) as alice:
        session = new_session(
            alice,
            mode="native",
            instructions="Remember names.",
            history=messages("My name is Ada.", "Nice to meet you, Ada."),
        )
        first = run_ok(alice, run_request("!recall", session))
        assert first.output.text == "recall: 2 messages; last user: My name is Ada."
        assert not isinstance(first.session, Unset)
        second = run_ok(alice, run_request("I like tea.", first.session))
        assert not isinstance(second.session, Unset)
        third = run_ok(alice, run_request("!recall", second.session))
        # imported messages plus the visible messages of the two earlier native turns
        assert third.output.text == "recall: 6 messages; last user: I like tea."
        # usage counts what the model was sent: instructions, 6 earlier messages, the input
        earlier = ["My name is Ada.", "Nice to meet you, Ada.", "!recall", first.output.text, "I like tea."]
        earlier.append(second.output.text)
        assert third.usage.input_tokens == 2 + sum(len(m.split()) for m in earlier) + 1

        read = read_ok(alice, session.id)
        assert read.instructions == "Remember names."
        assert read.session.message_count == 8
        assert all(m.role.value in ("user", "assistant") for m in read.history)
        assert delete_session.sync_detailed(session.id, client=alice).status_code == 204
