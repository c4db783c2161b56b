"""Per-subject quotas (``limits.perSubject``): the window, its Retry-After, what it keeps, and the counts the
session store and run registry keep for it (an injected clock decides; nothing sleeps)."""

from __future__ import annotations

import pytest

from agentic_driver.clock import ManualClock
from agentic_driver.config import ConfigError, HostConfig, PerSubjectConfig, SessionsConfig
from agentic_driver.errors import SubjectQuotaExceeded
from agentic_driver.quotas import WINDOW_MS, SubjectQuotas
from agentic_driver.sessions import Owner, SessionStore
from agentic_driver.turns.runs import ActiveRun, RunRegistry

OWNER = Owner(subject="local", provider="echo", account="acct-1", model="echo-1")


def refused(call: object, *args: object) -> SubjectQuotaExceeded:
    assert callable(call)
    with pytest.raises(SubjectQuotaExceeded) as caught:
        call(*args)
    return caught.value


def test_the_rate_refuses_the_run_after_the_window_is_full_until_its_oldest_start_leaves_it() -> None:
    clock = ManualClock()
    limits: list[str] = []
    quotas = SubjectQuotas(PerSubjectConfig(runsPerMinute=2), clock, limits.append)
    quotas.check_run("ada", 0)
    quotas.note_run("ada")
    clock.advance(10_500)
    quotas.check_run("ada", 0)
    quotas.note_run("ada")

    error = refused(quotas.check_run, "ada", 0)
    assert (error.status, error.limit, error.maximum) == (429, "perSubject.runsPerMinute", 2)
    assert error.retry_after_seconds == 50  # the first start leaves the window 49.5 s from now: rounded up
    assert error.problem()["retryAfterSeconds"] == 50 and limits == ["perSubject.runsPerMinute"]
    quotas.check_run("grace", 0)  # another subject is not counted with ada

    clock.advance(WINDOW_MS - 10_500 - 1)
    assert refused(quotas.check_run, "ada", 0).retry_after_seconds == 1  # 1 ms left still asks for a second
    clock.advance(1)
    quotas.check_run("ada", 0)  # the first start is 60 s old: out of the window


def test_the_window_forgets_subjects_whose_last_start_left_it() -> None:
    clock = ManualClock()
    quotas = SubjectQuotas(PerSubjectConfig(runsPerMinute=5), clock)
    for index in range(100):
        quotas.note_run(f"subject-{index}")
    assert quotas.tracked_subjects() == 100
    clock.advance(WINDOW_MS)
    quotas.note_run("late")
    assert quotas.tracked_subjects() == 1  # memory follows the subjects of the last minute


def test_the_window_keeps_at_most_the_rate_of_starts_per_subject() -> None:
    clock = ManualClock()
    quotas = SubjectQuotas(PerSubjectConfig(runsPerMinute=3), clock)
    for _ in range(50):  # an embedder may note runs without checking; the window still holds three
        quotas.note_run("ada")
    assert len(quotas._starts["ada"]) == 3


def test_active_runs_and_sessions_are_refused_at_their_maximum_only() -> None:
    quotas = SubjectQuotas(PerSubjectConfig(maxActiveRuns=2, maxSessions=1), ManualClock())
    quotas.check_run("ada", 1)
    error = refused(quotas.check_run, "ada", 2)
    assert (error.limit, error.maximum, error.retry_after_seconds) == ("perSubject.maxActiveRuns", 2, None)
    assert quotas.session_fits(0) and not quotas.session_fits(1)


def test_no_bound_is_set_by_default() -> None:
    config = HostConfig.model_validate({"providers": [{"id": "echo", "kind": "echo", "models": ["echo-1"]}]})
    quotas = SubjectQuotas(config.limits.perSubject, ManualClock())
    assert not quotas.enabled
    for _ in range(1000):
        quotas.check_run("ada", 10_000)
        quotas.note_run("ada")
    assert quotas.session_fits(10_000) and quotas.tracked_subjects() == 0


@pytest.mark.parametrize("bound", ["maxSessions", "maxActiveRuns", "runsPerMinute"])
@pytest.mark.parametrize("value", [0, -1, "3", 1.5])
def test_a_bound_below_one_or_not_an_integer_is_a_config_error(bound: str, value: object) -> None:
    with pytest.raises((ConfigError, ValueError)):
        HostConfig.model_validate(
            {
                "providers": [{"id": "echo", "kind": "echo", "models": ["echo-1"]}],
                "limits": {"perSubject": {bound: value}},
            }
        )


def test_an_unknown_per_subject_member_is_a_config_error() -> None:
    with pytest.raises((ConfigError, ValueError)):
        HostConfig.model_validate(
            {
                "providers": [{"id": "echo", "kind": "echo", "models": ["echo-1"]}],
                "limits": {"perSubject": {"maxRunsPerMinute": 3}},
            }
        )


def test_the_store_counts_sessions_per_subject_and_refuses_the_one_over_the_quota() -> None:
    clock = ManualClock()
    quotas = SubjectQuotas(PerSubjectConfig(maxSessions=2), clock)
    store = SessionStore(SessionsConfig(retentionMs=60_000), clock, quotas=quotas)
    other = Owner(subject="grace", provider="echo", account="acct-1", model="echo-1")
    first = store.create(OWNER, "history", None, [])
    store.create(OWNER, "history", None, [])
    store.create(other, "history", None, [])
    assert (store.held_by("local"), store.held_by("grace")) == (2, 1)

    assert refused(store.create, OWNER, "history", None, []).limit == "perSubject.maxSessions"
    assert refused(store.fork, first, 0).limit == "perSubject.maxSessions"
    assert len(store) == 3  # nothing was stored by the refusals

    store.delete(first)
    store.create(OWNER, "history", None, [])
    assert store.held_by("local") == 2


def test_expired_sessions_not_yet_swept_do_not_count_against_the_quota() -> None:
    clock = ManualClock()
    store = SessionStore(
        SessionsConfig(retentionMs=60_000), clock, quotas=SubjectQuotas(PerSubjectConfig(maxSessions=1), clock)
    )
    store.create(OWNER, "history", None, [])
    clock.advance(60_000)  # expired; its timer has not run (the manual clock moved, not the loop)
    store.create(OWNER, "history", None, [])
    assert store.held_by("local") == 1 and len(store) == 1


def test_a_restart_snapshot_is_restored_whatever_the_quota() -> None:
    clock = ManualClock()
    quotas = SubjectQuotas(PerSubjectConfig(maxSessions=1), clock)
    source = SessionStore(SessionsConfig(retentionMs=60_000), clock)
    records = [source.create(OWNER, "history", None, []) for _ in range(3)]
    restored = SessionStore(SessionsConfig(retentionMs=60_000), clock, quotas=quotas)
    for record in records:
        source.delete(record)
        record.deleted = False
        restored.restore(record, clock.now_ms() + 60_000)
    assert restored.held_by("local") == 3  # the operator's restart loses nothing; new sessions wait their turn
    assert refused(restored.create, OWNER, "history", None, []).limit == "perSubject.maxSessions"


def test_the_registry_counts_active_runs_per_subject() -> None:
    registry = RunRegistry()  # no clock: ended runs are not kept (no timer, no loop needed)
    runs = [
        ActiveRun(id=f"run_{i}", subject=subject, provider="echo", input="hi", log=registry.new_log())
        for i, subject in enumerate(["ada", "ada", "grace"])
    ]
    for active in runs:
        registry.add(active)
    assert (registry.active_of("ada"), registry.active_of("grace"), registry.active_of("nobody")) == (2, 1, 0)
    registry.remove(runs[0])
    registry.remove(runs[0])  # a second removal of the same run changes nothing
    registry.remove(runs[2])
    assert (registry.active_of("ada"), registry.active_of("grace")) == (1, 0)
    assert registry._active_by_subject == {"ada": 1}
