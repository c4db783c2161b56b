"""The bounded session store: revisions, retention (an injected clock decides), bounds, timers."""

from __future__ import annotations

import asyncio

import pytest

from agentic_driver.clock import ManualClock, SystemClock
from agentic_driver.config import SessionsConfig
from agentic_driver.errors import SessionLimitExceeded, SessionStoreFull
from agentic_driver.providers import VisibleMessage
from agentic_driver.sessions import InterruptedTurnRecord, Owner, SessionStore, TurnGrowth, TurnRecord
from agentic_driver.sessions.records import RunFigures, message_bytes

OWNER = Owner(subject="local", provider="echo", account="acct-1", model="echo-1")


def test_create_stores_a_ready_record_at_revision_zero_expiring_after_the_retention() -> None:
    clock = ManualClock(start_ms=1_000_000)
    sizes: list[int] = []
    store = SessionStore(SessionsConfig(retentionMs=60_000), clock, sizes.append)
    history = [VisibleMessage("user", "My name is Ada."), VisibleMessage("assistant", "Hi Ada.")]

    record = store.create(OWNER, "history", "Be brief.", history)

    assert record.id.startswith("ses_")
    assert record.revision == 0
    assert record.status == "ready"
    assert record.created_ms == record.updated_ms == 1_000_000
    assert record.expires_ms == 1_000_000 + 60_000
    assert record.history == history
    assert record.imported == 2
    assert record.record_bytes == len(b"Be brief.") + sum(message_bytes(m) for m in history)
    assert store.get(record.id) is record
    assert len(store) == 1
    assert sizes == [1]


def test_message_bytes_counts_the_encoded_json_of_role_and_content() -> None:
    assert message_bytes(VisibleMessage("user", "hi")) == len(b'{"role":"user","content":"hi"}')
    assert message_bytes(VisibleMessage("assistant", "\u00e9")) == len(
        '{"role":"assistant","content":"\u00e9"}'.encode()
    )


def test_get_removes_a_record_once_the_clock_reaches_its_expiry() -> None:
    clock = ManualClock()
    sizes: list[int] = []
    store = SessionStore(SessionsConfig(retentionMs=60_000), clock, sizes.append)
    record = store.create(OWNER, "history", None, [])

    clock.advance(59_999)
    assert store.get(record.id) is record

    clock.advance(1)
    assert store.get(record.id) is None
    assert len(store) == 0
    assert record.deleted is True
    assert sizes == [1, 0]


def test_get_of_an_unknown_id_is_none() -> None:
    store = SessionStore(SessionsConfig(retentionMs=60_000), ManualClock())

    assert store.get("ses_nope") is None


def test_retention_is_suspended_during_a_turn_and_counts_again_from_its_end() -> None:
    clock = ManualClock()
    store = SessionStore(SessionsConfig(retentionMs=60_000), clock)
    record = store.create(OWNER, "history", None, [])

    clock.advance(30_000)
    store.begin_turn(record)
    assert record.status == "running"
    assert record.expires_ms is None

    clock.advance(10 * 60_000)
    assert store.get(record.id) is record

    store.commit_turn(record, TurnGrowth("run_1", (VisibleMessage("user", "a"), VisibleMessage("assistant", "b"))))
    end_of_turn = clock.now_ms()
    assert record.status == "ready"
    assert record.updated_ms == end_of_turn
    assert record.expires_ms == end_of_turn + 60_000

    clock.advance(59_999)
    assert store.get(record.id) is record
    clock.advance(1)
    assert store.get(record.id) is None


def test_commit_advances_the_revision_by_one_and_records_which_messages_the_turn_added() -> None:
    clock = ManualClock()
    store = SessionStore(SessionsConfig(retentionMs=60_000), clock)
    imported = [VisibleMessage("user", "earlier"), VisibleMessage("assistant", "reply")]
    record = store.create(OWNER, "native", None, imported)
    bytes_before = record.record_bytes
    added = (VisibleMessage("user", "question"), VisibleMessage("assistant", "answer"))

    store.begin_turn(record)
    clock.advance(1_234)
    store.commit_turn(record, TurnGrowth("run_a", added, native=('{"n":1}', '{"n":2}')))

    assert record.revision == 1
    assert list(record.turns) == [
        TurnRecord(revision=1, run_id="run_a", start=2, end=4, at_ms=clock.now_ms(), native_end=2)
    ]
    assert record.history == [*imported, *added]
    assert record.native == ['{"n":1}', '{"n":2}']
    assert record.record_bytes == bytes_before + sum(message_bytes(m) for m in added) + len(b'{"n":1}{"n":2}')

    store.begin_turn(record)
    store.commit_turn(record, TurnGrowth("run_b", added))

    assert record.revision == 2
    assert record.turns[-1] == TurnRecord(
        revision=2, run_id="run_b", start=4, end=6, at_ms=clock.now_ms(), native_end=2
    )


def test_an_interrupted_turn_leaves_history_and_revision_and_counts_retention_from_the_interruption() -> None:
    clock = ManualClock()
    store = SessionStore(SessionsConfig(retentionMs=60_000), clock)
    record = store.create(OWNER, "history", None, [VisibleMessage("user", "kept")])
    store.begin_turn(record)
    clock.advance(5_000)

    store.end_turn_without_commit(record, InterruptedTurnRecord("run_x", "lost input", "cancelled", clock.now_ms()))

    assert record.status == "interrupted"
    assert record.revision == 0
    assert record.history == [VisibleMessage("user", "kept")]
    assert record.interrupted_turn == InterruptedTurnRecord("run_x", "lost input", "cancelled", clock.now_ms())
    assert record.expires_ms == clock.now_ms() + 60_000


def test_a_turn_stopped_before_model_work_returns_the_session_to_ready() -> None:
    clock = ManualClock()
    store = SessionStore(SessionsConfig(retentionMs=60_000), clock)
    record = store.create(OWNER, "history", None, [])
    store.begin_turn(record)
    clock.advance(7_000)

    store.end_turn_without_commit(record, None)

    assert record.status == "ready"
    assert record.revision == 0
    assert record.interrupted_turn is None
    assert record.expires_ms == clock.now_ms() + 60_000


def test_importing_more_messages_than_max_messages_is_refused_with_the_limit_named() -> None:
    store = SessionStore(SessionsConfig(retentionMs=60_000, maxMessages=2), ManualClock())
    history = [VisibleMessage("user", "1"), VisibleMessage("assistant", "2"), VisibleMessage("user", "3")]

    with pytest.raises(SessionLimitExceeded) as caught:
        store.create(OWNER, "history", None, history)

    assert caught.value.limit == "maxMessages"
    assert caught.value.maximum == 2
    assert caught.value.problem()["limit"] == "maxMessages"
    assert "3 messages" in caught.value.detail
    assert len(store) == 0


def test_importing_more_bytes_than_max_record_bytes_is_refused_with_the_limit_named() -> None:
    store = SessionStore(SessionsConfig(retentionMs=60_000, maxRecordBytes=100), ManualClock())

    with pytest.raises(SessionLimitExceeded) as caught:
        store.create(OWNER, "history", "x" * 90, [VisibleMessage("user", "just over the bound")])

    assert caught.value.limit == "maxRecordBytes"
    assert caught.value.maximum == 100
    assert caught.value.problem()["maximum"] == 100
    assert len(store) == 0


def test_a_record_exactly_at_max_record_bytes_is_accepted() -> None:
    store = SessionStore(SessionsConfig(retentionMs=60_000, maxRecordBytes=100), ManualClock())

    record = store.create(OWNER, "history", "x" * 100, [])

    assert record.record_bytes == 100


def test_check_growth_refuses_a_turn_that_could_not_fit_its_two_messages() -> None:
    store = SessionStore(SessionsConfig(retentionMs=60_000, maxMessages=3), ManualClock())
    record = store.create(OWNER, "history", None, [VisibleMessage("user", "a"), VisibleMessage("assistant", "b")])

    with pytest.raises(SessionLimitExceeded) as caught:
        store.check_growth(record, "next")

    assert caught.value.limit == "maxMessages"
    assert caught.value.maximum == 3


def test_check_growth_refuses_an_input_that_would_outgrow_max_record_bytes() -> None:
    store = SessionStore(SessionsConfig(retentionMs=60_000, maxRecordBytes=60), ManualClock())
    record = store.create(OWNER, "history", None, [])

    store.check_growth(record, "short")
    with pytest.raises(SessionLimitExceeded) as caught:
        store.check_growth(record, "y" * 40)

    assert caught.value.limit == "maxRecordBytes"
    assert caught.value.maximum == 60


def test_a_commit_over_max_messages_is_refused_and_changes_nothing() -> None:
    store = SessionStore(SessionsConfig(retentionMs=60_000, maxMessages=3), ManualClock())
    record = store.create(OWNER, "history", None, [VisibleMessage("user", "a"), VisibleMessage("assistant", "b")])
    store.begin_turn(record)

    with pytest.raises(SessionLimitExceeded) as caught:
        store.commit_turn(record, TurnGrowth("run_1", (VisibleMessage("user", "c"), VisibleMessage("assistant", "d"))))

    assert caught.value.limit == "maxMessages"
    assert record.revision == 0
    assert len(record.history) == 2
    assert list(record.turns) == []


def test_native_items_over_max_native_messages_are_refused_with_the_limit_named() -> None:
    store = SessionStore(SessionsConfig(retentionMs=60_000, maxNativeMessages=4), ManualClock())
    record = store.create(OWNER, "native", None, [])
    turn = (VisibleMessage("user", "q"), VisibleMessage("assistant", "a"))
    store.begin_turn(record)
    store.commit_turn(record, TurnGrowth("run_1", turn, native=("1", "2", "3")))
    store.begin_turn(record)

    with pytest.raises(SessionLimitExceeded) as caught:
        store.commit_turn(record, TurnGrowth("run_2", turn, native=("4", "5", "6")))

    assert caught.value.limit == "maxNativeMessages"
    assert caught.value.maximum == 4
    assert record.native == ["1", "2", "3"]
    assert record.revision == 1


def test_a_full_store_refuses_new_sessions_until_the_next_expiry_and_says_when() -> None:
    clock = ManualClock()
    store = SessionStore(SessionsConfig(retentionMs=60_000, maxEntries=2), clock)
    first = store.create(OWNER, "history", None, [])
    clock.advance(5_000)
    store.create(OWNER, "history", None, [])
    clock.advance(10_500)

    with pytest.raises(SessionStoreFull) as caught:
        store.create(OWNER, "history", None, [])

    # The first record expires 60 s after its creation, 44.5 s from now: rounded up.
    assert caught.value.retry_after_seconds == 45
    assert caught.value.problem()["limit"] == "maxEntries"
    assert caught.value.problem()["maximum"] == 2
    assert len(store) == 2

    clock.advance(44_500)
    third = store.create(OWNER, "history", None, [])

    assert first.deleted is True
    assert store.get(first.id) is None
    assert store.get(third.id) is third
    assert len(store) == 2


def test_a_full_store_of_running_sessions_asks_for_at_least_one_second() -> None:
    clock = ManualClock()
    store = SessionStore(SessionsConfig(retentionMs=1, maxEntries=1), clock)
    record = store.create(OWNER, "history", None, [])
    store.begin_turn(record)

    with pytest.raises(SessionStoreFull) as caught:
        store.create(OWNER, "history", None, [])

    assert caught.value.retry_after_seconds == 1


def test_deleting_a_record_frees_room_in_a_full_store() -> None:
    store = SessionStore(SessionsConfig(retentionMs=60_000, maxEntries=1), ManualClock())
    first = store.create(OWNER, "history", None, [])

    store.delete(first)
    second = store.create(OWNER, "history", None, [])

    assert first.deleted is True
    assert store.get(first.id) is None
    assert store.get(second.id) is second


async def test_the_idle_timer_removes_an_expired_record_without_any_access() -> None:
    store = SessionStore(SessionsConfig(retentionMs=20), SystemClock())
    record = store.create(OWNER, "history", None, [])
    assert record.timer is not None

    # The timer itself is under test, so this waits on the real loop (bounded at 2 s).
    for _ in range(200):
        if len(store) == 0:
            break
        await asyncio.sleep(0.01)

    assert len(store) == 0
    assert record.deleted is True
    assert record.timer is None


async def test_the_idle_timer_defers_to_the_injected_clock() -> None:
    clock = ManualClock()
    store = SessionStore(SessionsConfig(retentionMs=20), clock)
    record = store.create(OWNER, "history", None, [])
    first_timer = record.timer
    assert first_timer is not None

    # The loop's 20 ms pass but the injected clock has not moved: the timer looks again later.
    for _ in range(200):
        if record.timer is not first_timer:
            break
        await asyncio.sleep(0.01)
    assert record.timer is not None and record.timer is not first_timer
    assert record.deleted is False
    assert len(store) == 1

    clock.advance(20)
    for _ in range(200):
        if len(store) == 0:
            break
        await asyncio.sleep(0.01)

    assert len(store) == 0
    assert record.deleted is True


async def test_a_turn_and_a_delete_cancel_the_idle_timer() -> None:
    store = SessionStore(SessionsConfig(retentionMs=60_000), ManualClock())
    record = store.create(OWNER, "history", None, [])
    timer = record.timer
    assert timer is not None

    store.begin_turn(record)
    assert record.timer is None
    assert timer.cancelled()

    store.end_turn_without_commit(record, None)
    assert record.timer is not None

    store.delete(record)
    assert record.timer is None
    assert record.deleted is True


def test_without_a_running_loop_no_timer_is_scheduled_and_access_still_expires() -> None:
    clock = ManualClock()
    store = SessionStore(SessionsConfig(retentionMs=10), clock)

    record = store.create(OWNER, "history", None, [])
    clock.advance(10)

    assert record.timer is None
    assert store.get(record.id) is None


class _Run:
    """The least a session needs of its active run (``SessionRun``)."""

    def __init__(self, run_id: str) -> None:
        self.id = run_id
        self.reasons: list[str] = []

    def cancel(self, reason: str) -> None:
        self.reasons.append(reason)

    async def settled(self) -> None:
        return None


def test_a_session_is_created_with_its_native_filter() -> None:
    store = SessionStore(SessionsConfig(retentionMs=60_000), ManualClock())

    assert store.create(OWNER, "native", None, [], native_filter="compact").native_filter == "compact"
    assert store.create(OWNER, "native", None, []).native_filter == "full"


def test_a_turn_holds_its_run_and_prefix_until_it_ends() -> None:
    store = SessionStore(SessionsConfig(retentionMs=60_000), ManualClock())
    record = store.create(OWNER, "native", None, [])
    run = _Run("run_1")

    store.begin_turn(record, run, prefix_fingerprint="prefix-a")
    assert record.active_run is run and record.prefix_fingerprint == "prefix-a"

    store.commit_turn(record, TurnGrowth("run_1", (VisibleMessage("user", "a"), VisibleMessage("assistant", "b"))))
    assert record.active_run is None and record.prefix_fingerprint == "prefix-a"

    store.begin_turn(record, _Run("run_2"))  # no prefix given: the session keeps the one it has
    assert record.prefix_fingerprint == "prefix-a"


def test_the_first_completed_turn_fixes_the_tools_fingerprint() -> None:
    store = SessionStore(SessionsConfig(retentionMs=60_000), ManualClock())
    record = store.create(OWNER, "history", None, [])
    turn = (VisibleMessage("user", "a"), VisibleMessage("assistant", "b"))

    for run_id, tools in (("run_1", "tools-1"), ("run_2", "tools-2")):
        store.begin_turn(record, _Run(run_id))
        store.commit_turn(record, TurnGrowth(run_id, turn, tools_fingerprint=tools))

    assert record.tools_fingerprint == "tools-1"


def test_a_refused_turn_fixes_no_tools_fingerprint() -> None:
    store = SessionStore(SessionsConfig(retentionMs=60_000, maxMessages=1), ManualClock())
    record = store.create(OWNER, "history", None, [])
    store.begin_turn(record, _Run("run_1"))

    with pytest.raises(SessionLimitExceeded):
        store.commit_turn(
            record,
            TurnGrowth("run_1", (VisibleMessage("user", "a"), VisibleMessage("assistant", "b")), tools_fingerprint="t"),
        )

    assert record.tools_fingerprint is None and record.revision == 0


def test_a_run_is_accounted_to_its_session_unless_the_session_was_deleted() -> None:
    store = SessionStore(SessionsConfig(retentionMs=60_000), ManualClock())
    kept, deleted = store.create(OWNER, "history", None, []), store.create(OWNER, "history", None, [])
    store.delete(deleted)

    for record in (kept, deleted):
        store.account(record, RunFigures(retries=2))

    assert (kept.accounting.runs, kept.accounting.retries) == (1, 2)
    assert deleted.accounting.runs == 0
