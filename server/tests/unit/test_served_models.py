"""A session's served models: one entry per distinct model with its turns (``servedModelRuns``), and the
deprecated ``servedModels``, the last ``RECENT_SERVED_MODELS`` turns' models; neither grows with the turns."""

from __future__ import annotations

import gc
import tracemalloc
import warnings

import pytest

from agentic_driver import envelope
from agentic_driver.models import SessionInfo
from agentic_driver.sessions import Accounting, RunFigures
from agentic_driver.sessions.records import RECENT_SERVED_MODELS

NAME = "gpt-5.1-mini-2026-10-01"


def answered_by(name: str) -> RunFigures:
    # A new string each time, as a name parsed from each provider answer is.
    return RunFigures(served_model="".join([name[:5], name[5:]]))


def test_each_model_is_counted_once_in_the_order_first_served() -> None:
    accounting = Accounting()
    for name in ["model-a", "model-b", "model-b", "model-a", "model-c"]:
        accounting.add(answered_by(name))

    assert accounting.served_runs == (("model-a", 2), ("model-b", 2), ("model-c", 1))
    assert accounting.recent_models == ("model-a", "model-b", "model-b", "model-a", "model-c")


def test_the_deprecated_list_keeps_the_last_turns_only() -> None:
    accounting = Accounting()
    for index in range(RECENT_SERVED_MODELS + 30):
        accounting.add(answered_by("old" if index < 30 else "new"))

    assert accounting.recent_models == ("new",) * RECENT_SERVED_MODELS
    assert accounting.served_runs == (("old", 30), ("new", RECENT_SERVED_MODELS))


def test_several_turns_counted_at_once_keep_the_same_bound() -> None:
    accounting = Accounting()
    accounting.served("old", RECENT_SERVED_MODELS - 1)
    accounting.served("new", 3)
    assert accounting.recent_models == ("old",) * (RECENT_SERVED_MODELS - 3) + ("new",) * 3

    accounting.served("new", 10 * RECENT_SERVED_MODELS)
    assert accounting.recent_models == ("new",) * RECENT_SERVED_MODELS
    assert accounting.served_runs == (("old", RECENT_SERVED_MODELS - 1), ("new", 10 * RECENT_SERVED_MODELS + 3))


def test_a_view_taken_earlier_keeps_what_it_saw() -> None:
    accounting = Accounting()
    accounting.add(answered_by("model-a"))
    seen = (accounting.served_runs, accounting.recent_models)
    accounting.add(answered_by("model-a"))
    assert seen == ((("model-a", 1),), ("model-a",))


def test_ten_thousand_turns_of_one_model_keep_no_more_than_one() -> None:
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

    assert retained < 2_000  # bytes for all of them: the hundred-slot tuple, not one slot per turn
    assert accounting.served_runs == ((NAME, 10_001),)
    assert accounting.recent_models == (NAME,) * RECENT_SERVED_MODELS
    assert all(model is accounting.served_runs[0][0] for model in accounting.recent_models)  # one copy of the name


def test_an_envelope_from_before_the_counts_is_read_as_every_turns_model() -> None:
    legacy = envelope._AccountingV1.model_validate({"servedModels": ["a", "b", "a"] + ["c"] * 150})
    accounting = envelope._accounting(legacy)
    assert accounting.served_runs == (("a", 2), ("b", 1), ("c", 150))
    assert accounting.recent_models == ("c",) * RECENT_SERVED_MODELS


def test_reading_the_deprecated_field_in_embedded_use_warns() -> None:
    info_fields = SessionInfo.model_fields["servedModels"]
    assert info_fields.deprecated
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(DeprecationWarning):
            SessionInfo.model_construct(servedModels=["x"]).servedModels  # noqa: B018
