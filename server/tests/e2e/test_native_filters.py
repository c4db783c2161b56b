"""nativeHistory over HTTP: discovery lists the filters, createSession takes one in native mode only, and what a
filtered session stores is what the next turn replays (it verifies, ``!recall`` still sees the tool exchange)
and what its recordBytes count. The ``ledger`` host cuts tool results to 12 characters."""

from __future__ import annotations

import pytest
from agentic_driver_client import AuthenticatedClient
from agentic_driver_client.api.discovery import get_discovery
from agentic_driver_client.api.sessions import create_session, delete_session
from agentic_driver_client.models import Discovery, SessionInfo
from agentic_driver_client.types import Unset

from .conftest import (
    ALICE,
    LEDGER_COMPACT_MAX_CHARS,
    Host,
    assert_problem,
    create_request,
    function_results,
    function_tool,
    new_session,
    read_ok,
    run_ok,
    run_request,
    submit_ok,
)

FILTERS = ["full", "no_reasoning", "no_tool_results", "compact_tool_results"]
LONG_RESULT = "Tea is an aromatic beverage prepared by pouring hot water over cured leaves. " * 4


def _tool_turn(client: AuthenticatedClient, session: SessionInfo) -> SessionInfo:
    """A plain turn, then a turn whose lookup call is answered with LONG_RESULT."""
    first = run_ok(client, run_request("I like tea.", session))
    assert not isinstance(first.session, Unset)
    paused = run_ok(
        client, run_request("!call lookup {}\nWhat is tea?", first.session, tools=[function_tool("lookup")])
    )
    assert paused.status.value == "requires_action"
    done = submit_ok(client, paused.id, function_results((paused.required_action.calls[0].call_id, LONG_RESULT)))
    assert not isinstance(done.session, Unset)
    return done.session


def test_discovery_lists_the_native_history_filters_of_every_instance(ledger_host: Host) -> None:
    with ledger_host.client(ALICE) as alice:
        response = get_discovery.sync_detailed(client=alice)
    assert isinstance(response.parsed, Discovery)
    filters = {p.id: [f.value for f in p.capabilities.native_history_filters] for p in response.parsed.providers}
    # an instance without native sessions offers no filter beyond full
    assert filters == {"echo": FILTERS, "echo-free": FILTERS, "echo-history": ["full"]}


def test_each_filter_is_replayed_and_verifies_and_shrinks_the_record(ledger_host: Host) -> None:
    sizes = {}
    with ledger_host.client(ALICE) as alice:
        for name in FILTERS:
            session = new_session(alice, mode="native", native_history=name)
            assert session.native_history.value == name
            info = _tool_turn(alice, session)
            assert info.native_history.value == name
            sizes[name] = info.record_bytes

            recall = run_ok(alice, run_request("!recall", info))
            assert recall.output.text == (
                "recall: 4 messages; last user: !call lookup {}\nWhat is tea?; tool exchanges: 1"
            ), name
            assert not isinstance(recall.session, Unset)
            again = run_ok(alice, run_request("!recall", recall.session))  # and again, over the new turn too
            assert again.output.text.startswith("recall: 6 messages; last user: !recall")

            read = read_ok(alice, session.id)
            assert read.session.native_history.value == name
            assert [m.content for m in read.history][:2] == ["I like tea.", "echo: I like tea."]
            assert delete_session.sync_detailed(session.id, client=alice).status_code == 204

    # the record counts the filtered items: a 34-character placeholder, or 12 characters ending in "…", for the result
    assert sizes["no_reasoning"] < sizes["full"]
    assert sizes["compact_tool_results"] < sizes["no_tool_results"] < sizes["full"]
    cut = len(LONG_RESULT.encode()) - len((LONG_RESULT[: LEDGER_COMPACT_MAX_CHARS - 1] + "…").encode())
    assert sizes["full"] - sizes["compact_tool_results"] == cut


@pytest.mark.parametrize("name", ["no_reasoning", "no_tool_results", "compact_tool_results"])
def test_a_filter_on_a_history_session_is_a_validation_error(ledger_host: Host, name: str) -> None:
    with ledger_host.client(ALICE) as alice:
        response = create_session.sync_detailed(client=alice, body=create_request(mode="history", native_history=name))
    body = assert_problem(response, 422, "VALIDATION_ERROR")
    assert body["errors"] == [{"location": "body.nativeHistory", "message": "requires mode native"}]


def test_a_native_filter_where_native_sessions_are_unsupported_is_unsupported_continuation(ledger_host: Host) -> None:
    with ledger_host.client(ALICE) as alice:
        response = create_session.sync_detailed(
            client=alice, body=create_request("echo-history", mode="native", native_history="no_reasoning")
        )
    assert_problem(response, 422, "UNSUPPORTED_CONTINUATION")


def test_an_unknown_filter_is_a_validation_error(ledger_host: Host) -> None:
    with ledger_host.raw(ALICE) as http:
        body = {"provider": "echo", "model": "echo-1", "mode": "native", "nativeHistory": "summarise"}
        response = http.post("/v1/sessions", json=body)
    assert_problem(response, 422, "VALIDATION_ERROR")


def test_full_is_the_default(ledger_host: Host) -> None:
    with ledger_host.client(ALICE) as alice:
        for mode in ("native", "history"):
            session = new_session(alice, mode=mode)
            assert session.native_history.value == "full"
            assert delete_session.sync_detailed(session.id, client=alice).status_code == 204
