"""The linearizability checker and the session model, on small histories whose verdict is known.

Beside hand-made cases, the checker is compared with a brute-force oracle (every
order of the operations that respects real time) on a few thousand seeded
random register histories, linearizable and not.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Hashable, Iterable
from typing import Any

import pytest

from .linearizability import Operation, SearchBudgetExceeded, check
from .session_model import (
    COMMIT,
    DELETED,
    INTERRUPT,
    RELEASE,
    Admit,
    Delete,
    Finish,
    Observe,
    Read,
    Refuse,
    SessionModel,
)

INF = math.inf


class Register:
    """A read/write register starting at 0: ("w", v) -> None, ("r",) -> value."""

    def init(self) -> Hashable:
        return 0

    def step(self, state: Any, input: Any, output: Any) -> Iterable[Hashable]:
        if input[0] == "w":
            return [input[1]]
        return [state] if output == state else []


class CasRegister(Register):
    """Adds ("cas", old, new) -> bool."""

    def step(self, state: Any, input: Any, output: Any) -> Iterable[Hashable]:
        if input[0] == "cas":
            _, old, new = input
            if output is True:
                return [new] if state == old else []
            return [state] if state != old else []
        return super().step(state, input, output)


class LossyCounter:
    """Nondeterministic: ("inc",) may or may not take effect; ("get",) -> value."""

    def init(self) -> Hashable:
        return 0

    def step(self, state: Any, input: Any, output: Any) -> Iterable[Hashable]:
        if input[0] == "inc":
            return [state, state + 1]
        return [state] if output == state else []


def op(call: float, ret: float, input: Any, output: Any = None) -> Operation:
    return Operation(call, ret, input, output, label=f"{input}->{output}")


# -- registers ---------------------------------------------------------------------


def test_an_empty_history_is_linearizable() -> None:
    assert check(Register(), []).ok


@pytest.mark.parametrize(
    ("history", "ok"),
    [
        ([op(0, 1, ("w", 1)), op(2, 3, ("r",), 1)], True),
        ([op(0, 1, ("w", 1)), op(2, 3, ("r",), 0)], False),  # the write finished before the read began
        ([op(0, 10, ("w", 1)), op(1, 2, ("r",), 0), op(3, 4, ("r",), 1)], True),
        ([op(0, 10, ("w", 1)), op(1, 2, ("r",), 1), op(3, 4, ("r",), 0)], False),  # a value cannot be un-written
        ([op(0, 10, ("w", 1)), op(0, 10, ("w", 2)), op(11, 12, ("r",), 1)], True),
        ([op(0, 10, ("w", 1)), op(0, 10, ("w", 2)), op(11, 12, ("r",), 3)], False),
        # two readers disagree about the order of two concurrent writes: not linearizable
        (
            [
                op(0, 5, ("w", 1)),
                op(0, 5, ("w", 2)),
                op(1, 2, ("r",), 1),
                op(3, 4, ("r",), 2),
                op(1, 2, ("r",), 2),
                op(3, 4, ("r",), 1),
            ],
            False,
        ),
        # a write whose answer was never seen may take effect late, or (here) must have, to explain the read
        ([op(0, INF, ("w", 1)), op(5, 6, ("r",), 0), op(7, 8, ("r",), 1)], True),
        ([op(0, INF, ("w", 1)), op(5, 6, ("r",), 1), op(7, 8, ("r",), 0)], False),
        # operations that touch at an instant count as concurrent
        ([op(0, 1, ("w", 1)), op(1, 2, ("r",), 0)], True),
    ],
)
def test_register_histories(history: list[Operation], ok: bool) -> None:
    result = check(Register(), history)
    assert result.ok is ok, result.explain(history)
    if ok:
        assert sorted(result.linearization) == list(range(len(history)))


def test_compare_and_set() -> None:
    both_win = [op(0, 2, ("cas", 0, 1), True), op(1, 3, ("cas", 0, 2), True)]
    assert not check(CasRegister(), both_win).ok
    one_wins = [op(0, 2, ("cas", 0, 1), True), op(1, 3, ("cas", 0, 2), False), op(4, 5, ("r",), 1)]
    assert check(CasRegister(), one_wins).ok
    wrong_winner = [op(0, 2, ("cas", 0, 1), True), op(1, 3, ("cas", 0, 2), False), op(4, 5, ("r",), 2)]
    assert not check(CasRegister(), wrong_winner).ok


def test_nondeterministic_steps_are_searched_as_sets_of_states() -> None:
    incs = [op(0, 1, ("inc",)), op(2, 3, ("inc",))]
    for seen, ok in ((0, True), (1, True), (2, True), (3, False)):
        history = [*incs, op(4, 5, ("get",), seen)]
        assert check(LossyCounter(), history).ok is ok, seen
    # once a get saw 2, a later get cannot see less
    assert not check(LossyCounter(), [*incs, op(4, 5, ("get",), 2), op(6, 7, ("get",), 1)]).ok


def test_a_failure_reports_the_longest_legal_prefix() -> None:
    history = [op(0, 1, ("w", 1)), op(2, 3, ("w", 2)), op(4, 5, ("r",), 1)]
    result = check(Register(), history)
    assert not result.ok
    assert result.linearization == [0, 1]
    assert "could not place" in result.explain(history)


def test_the_search_budget_is_enforced() -> None:
    # many concurrent writes and a read that none of them explains: the search must try every order
    history = [op(0, 100, ("w", i)) for i in range(1, 13)] + [op(0, 100, ("r",), 99)]
    with pytest.raises(SearchBudgetExceeded):
        check(Register(), history, max_steps=1_000)


def test_a_return_before_its_call_is_rejected() -> None:
    with pytest.raises(ValueError, match="returns before it is called"):
        check(Register(), [op(2, 1, ("w", 1))])


# -- against a brute-force oracle ------------------------------------------------------


def brute_force(model: Any, history: list[Operation]) -> bool:
    """Every order that respects real time, run through the (deterministic) model."""
    for order in itertools.permutations(range(len(history))):
        position = {index: place for place, index in enumerate(order)}
        if any(
            history[a].ret < history[b].call and position[a] > position[b]
            for a in range(len(history))
            for b in range(len(history))
        ):
            continue
        state = model.init()
        for index in order:
            after = list(model.step(state, history[index].input, history[index].output))
            if not after:
                break
            state = after[0]
        else:
            return True
    return False


def random_register_history(rng: random.Random, size: int) -> list[Operation]:
    """Run a register sequentially at random instants, then widen each interval around its instant;
    with some probability corrupt one read (which may or may not break linearizability)."""
    value, history = 0, []
    for instant in sorted(rng.uniform(0, 10) for _ in range(size)):
        call, ret = instant - rng.uniform(0, 3), instant + rng.uniform(0, 3)
        if rng.random() < 0.1:
            ret = INF
        if rng.random() < 0.5:
            value = rng.randint(1, 3)
            history.append(op(call, ret, ("w", value)))
        else:
            history.append(op(call, ret if ret != INF else instant + 1, ("r",), value))
    if rng.random() < 0.5:
        reads = [i for i, o in enumerate(history) if o.input == ("r",)]
        if reads:
            i = rng.choice(reads)
            history[i] = op(history[i].call, history[i].ret, ("r",), rng.randint(0, 3))
    return history


def test_the_checker_agrees_with_brute_force_on_random_histories() -> None:
    rng = random.Random(20261129)
    verdicts = {True: 0, False: 0}
    for _ in range(1_500):
        history = random_register_history(rng, rng.randint(1, 6))
        expected = brute_force(Register(), history)
        assert check(Register(), history).ok is expected, history
        verdicts[expected] += 1
    assert min(verdicts.values()) > 100, verdicts  # both verdicts well represented


# -- the session model -----------------------------------------------------------------


def session(history: list[Operation], **model: Any) -> bool:
    return check(SessionModel(**model), history).ok


def run_ok(op_id: int, call: float, ret: float, revision: int) -> list[Operation]:
    """A JSON run that completed: admitted, then committed at ``revision + 1``, inside [call, ret]."""
    return [
        op(call, ret, Admit(op_id, revision)),
        op(call, ret, Finish(op_id, frozenset({COMMIT}), revision + 1)),
    ]


def test_two_runs_on_one_revision_cannot_both_succeed() -> None:
    assert not session(run_ok(1, 0, 10, 0) + run_ok(2, 0, 10, 0))


def test_sequential_runs_advance_the_revision_by_one_each() -> None:
    assert session(run_ok(1, 0, 1, 0) + run_ok(2, 2, 3, 1) + [op(4, 5, Read((1, 2), "ready"))])
    # a success reporting a revision that skips one is refused
    skipped = [op(0, 1, Admit(1, 0)), op(0, 1, Finish(1, frozenset({COMMIT}), 2))]
    assert not session(skipped)


def test_busy_needs_an_overlapping_active_turn() -> None:
    busy = [op(2, 3, Refuse(2, 0, "SESSION_BUSY", active_run_id="run_a"))]
    assert session(run_ok(1, 0, 10, 0) + busy, run_ids={1: "run_a"})
    # the turn had completed before the busy answer was asked for
    late = [op(11, 12, Refuse(2, 0, "SESSION_BUSY", active_run_id="run_a"))]
    assert not session(run_ok(1, 0, 10, 0) + late, run_ids={1: "run_a"})
    # busy naming a run that was not the active one
    assert not session(run_ok(1, 0, 10, 0) + busy, run_ids={1: "run_b"})


def test_revision_conflicts_report_the_current_revision() -> None:
    assert session([*run_ok(1, 0, 1, 0), op(2, 3, Refuse(2, 0, "SESSION_REVISION_CONFLICT", current_revision=1))])
    assert not session([*run_ok(1, 0, 1, 0), op(2, 3, Refuse(2, 0, "SESSION_REVISION_CONFLICT", current_revision=0))])
    # a run on the current revision of a ready session is never refused as a conflict
    assert not session([op(0, 1, Refuse(1, 0, "SESSION_REVISION_CONFLICT", current_revision=0))])


def test_interrupted_sessions_refuse_runs_and_keep_their_history() -> None:
    interrupted = [
        *run_ok(1, 0, 1, 0),
        op(2, 5, Admit(2, 1)),
        op(2, 5, Finish(2, frozenset({INTERRUPT}))),
        op(6, 7, Refuse(3, 1, "SESSION_INTERRUPTED")),
        op(6, 7, Read((1,), "interrupted", 2)),
    ]
    assert session(interrupted)
    assert not session([*interrupted, op(8, 9, Read((1,), "ready"))])
    # a cancel before model work started releases the turn: the session is ready again
    released = [op(0, 2, Admit(1, 0)), op(0, 2, Finish(1, frozenset({RELEASE}))), *run_ok(2, 3, 4, 0)]
    assert session(released)


def test_reads_see_running_turns_and_never_a_lost_or_forked_history() -> None:
    running = [*run_ok(1, 0, 10, 0), op(1, 2, Read((), "running"))]
    assert session(running)
    assert not session([*run_ok(1, 0, 1, 0), op(2, 3, Read((), "ready"))])  # a committed turn vanished
    assert not session([*run_ok(1, 0, 1, 0), op(2, 3, Read((1, 1), "ready"))])


def test_delete_aborts_the_active_turn_and_hides_the_session() -> None:
    deleted = [
        op(0, 10, Admit(1, 0)),
        op(0, 10, Finish(1, frozenset({DELETED}))),
        op(2, 4, Delete(True)),
        op(5, 6, Read(None)),
        op(5, 6, Refuse(2, 0, "SESSION_NOT_FOUND")),
        op(7, 8, Delete(False)),
    ]
    assert session(deleted)
    assert not session([*deleted, op(9, 10, Read((), "ready"))])
    # a run cannot answer session_deleted when its session outlived it
    assert not session([op(0, 1, Admit(1, 0)), op(0, 1, Finish(1, frozenset({DELETED}))), op(2, 3, Delete(True))])


def test_a_disconnected_stream_may_have_committed_or_not() -> None:
    disconnected = [op(0, 1, Admit(1, 0)), op(0, INF, Finish(1, frozenset({COMMIT, INTERRUPT})))]
    assert session([*disconnected, op(5, 6, Read((1,), "ready"))])
    assert session([*disconnected, op(5, 6, Read((), "interrupted", 1))])
    assert not session([*disconnected, op(5, 6, Read((), "ready")), op(7, 8, Read((1,), "ready"))])


def test_cancel_answers_observe_the_settled_session() -> None:
    cancelled = [op(0, 5, Admit(1, 0)), op(0, 5, Finish(1, frozenset({INTERRUPT, RELEASE})))]
    assert session([*cancelled, op(1, 6, Observe(0, "interrupted"))])
    assert session([*cancelled, op(1, 6, Observe(0, "ready"))])
    assert not session([*cancelled, op(1, 6, Observe(1, "ready"))])


def test_the_record_bound_refuses_a_turn_only_when_it_would_not_fit() -> None:
    full = run_ok(1, 0, 1, 0) + run_ok(2, 2, 3, 1)
    assert session([*full, op(4, 5, Refuse(3, 2, "SESSION_LIMIT_EXCEEDED"))], max_messages=4)
    assert not session([*full, op(4, 5, Refuse(3, 2, "SESSION_LIMIT_EXCEEDED"))], max_messages=6)
