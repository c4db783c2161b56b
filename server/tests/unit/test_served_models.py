"""A session keeps one copy of the served model's name for a run of turns answered by that model."""

from __future__ import annotations

import gc
import tracemalloc

from agentic_driver.sessions import Accounting, RunFigures

NAME = "gpt-5.1-mini-2026-10-01"


def answered_by(name: str) -> RunFigures:
    # A new string each time, as a name parsed from each provider answer is.
    return RunFigures(served_model="".join([name[:5], name[5:]]))


def test_served_models_list_each_run_oldest_first() -> None:
    accounting = Accounting()
    for name in ["model-a", "model-b", "model-b", "model-a"]:
        accounting.add(answered_by(name))

    assert accounting.served_models == ["model-a", "model-b", "model-b", "model-a"]


def test_a_run_answered_by_the_last_runs_model_keeps_no_copy_of_its_name() -> None:
    accounting = Accounting()
    accounting.add(answered_by(NAME))
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(10_000):
            accounting.add(answered_by(NAME))
        gc.collect()
        retained = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()

    assert retained / 10_000 < 12  # bytes a run: the list slot and the list's spare room, no string
    assert accounting.served_models == [NAME] * 10_001
