"""A session's turns are stored as columns and read back as TurnRecord values, in order."""

from __future__ import annotations

import pytest

from agentic_driver.ids import HostIds
from agentic_driver.sessions import TurnLog, TurnRecord

IDS = HostIds("host-a")
TURNS = [
    TurnRecord(
        revision,
        IDS.new_run_id() if revision % 2 else f"run_{revision}",
        2 * revision,
        2 * revision + 2,
        1_795_000_000_000 + revision,
        revision,
    )
    for revision in range(1, 6)
]


def test_turns_read_back_as_they_were_appended() -> None:
    log = TurnLog(TURNS)

    assert (len(log), list(log), log[0], log[-1]) == (5, TURNS, TURNS[0], TURNS[-1])
    assert log[1:3] == TURNS[1:3]


def test_keep_drops_every_turn_after_the_first_count() -> None:
    log = TurnLog(TURNS)

    log.keep(2)
    assert list(log) == TURNS[:2]
    log.append(TURNS[4])
    assert list(log) == [*TURNS[:2], TURNS[4]]
    log.keep(0)
    assert list(log) == []


def test_an_index_past_the_end_is_an_index_error() -> None:
    with pytest.raises(IndexError):
        TurnLog(TURNS)[5]


@pytest.mark.parametrize(
    "too_big", [TurnRecord(2**63, "run_big", 0, 2, 0, 0), TurnRecord(1, "run_big", 0, 2, 2**63, 0)]
)
def test_a_value_beyond_64_bits_is_refused_without_a_partial_turn(too_big: TurnRecord) -> None:
    log = TurnLog(TURNS[:1])

    with pytest.raises(OverflowError):
        log.append(too_big)

    assert list(log) == TURNS[:1]
    log.append(TURNS[1])
    assert list(log) == TURNS[:2]


@pytest.mark.parametrize(
    "run_id",
    [
        "run_host-a." + "A" * 22,  # the host's shape
        "run_other-host." + "A" * 22,  # the host's shape, another host's prefix (an imported session's)
        "run_" + "A" * 22,  # an older host's shape (no host part)
        "run_host-a." + "A" * 21 + "B",  # 22 characters whose last does not round-trip through 16 bytes
        "run_host-a." + "A" * 21 + "=",
        "run_." + "A" * 22,
        "run_short",
        "imported-" + "x" * 17,  # 26 characters, not the host's prefix
        "",
    ],
)
def test_any_run_id_reads_back_exactly(run_id: str) -> None:
    log = TurnLog([TURNS[0], TurnRecord(9, run_id, 0, 2, 1, 0), TURNS[1]])

    assert [t.run_id for t in log] == [TURNS[0].run_id, run_id, TURNS[1].run_id]
    log.keep(1)
    log.append(TURNS[2])
    assert [t.run_id for t in log] == [TURNS[0].run_id, TURNS[2].run_id]
