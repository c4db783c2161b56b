"""A session's served models are kept one name per distinct model and one small index per run."""

from __future__ import annotations

import gc
import tracemalloc

import pytest

from agentic_driver.sessions import ModelLog

RUNS = ["model-a", "model-b", "model-a", "model-a", "model-c"]


def test_models_read_back_in_run_order() -> None:
    log = ModelLog(RUNS)

    assert (len(log), list(log), log[0], log[-1], log[1:4]) == (5, RUNS, "model-a", "model-c", RUNS[1:4])


def test_an_index_past_the_end_is_an_index_error() -> None:
    with pytest.raises(IndexError):
        ModelLog(RUNS)[5]


def test_a_run_answered_by_a_known_model_keeps_no_copy_of_its_name() -> None:
    # Each answer brings its own string object (parsed from the provider's reply); only the index stays.
    log = ModelLog(["gpt-5.1-mini-2026-10-01"])
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(10_000):
            log.append("".join(["gpt-5.1-mini", "-2026-10-01"]))
        retained = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()

    assert retained / 10_000 < 8  # bytes a run: the 4-byte index and the array's spare room
    assert list(log) == ["gpt-5.1-mini-2026-10-01"] * 10_001
