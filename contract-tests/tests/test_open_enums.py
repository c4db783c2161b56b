"""The published schema is open where the evolution policy says the contract grows, and no wider.

A later host may send an error code or an event type this version does not define: the schema must
accept both, as validators (schemathesis, Prism) and clients read it. The openness must not hide a
mistake in what this version does define: a known event type in the wrong shape, or a value that
is not a code at all, still fails.
"""

from __future__ import annotations

from typing import Any

import pytest

from agentic_driver_conformance import spec

SCHEMAS = spec.document()["components"]["schemas"]


def _problem(code: Any) -> dict[str, Any]:
    return {
        "type": f"urn:agentic-driver:problem:{code}",
        "title": "A problem",
        "status": 503,
        "code": code,
        "detail": "Something a later host knows about.",
    }


def _event_data_validator() -> Any:
    data = SCHEMAS["RunEventMessage"]["properties"]["data"]
    assert data["contentMediaType"] == "application/json"
    return spec.validator_for(data["contentSchema"])


@pytest.mark.parametrize("code", ["SESSION_BUSY", "HOST_MOVED_TO_MARS", "A1_B2"])
def test_a_problem_with_a_known_or_later_code_is_valid(code: str) -> None:
    assert list(spec.validator_for({"$ref": "#/components/schemas/Problem"}).iter_errors(_problem(code))) == []


@pytest.mark.parametrize("code", ["session busy", "", 42, None])
def test_a_code_that_is_not_code_shaped_is_refused(code: Any) -> None:
    assert list(spec.validator_for({"$ref": "#/components/schemas/Problem"}).iter_errors(_problem(code)))


def test_a_per_status_problem_schema_does_not_close_the_code() -> None:
    # Every answer's schema is Problem plus the list of its known codes: a later code validates against each.
    for operation in spec.operations().values():
        for status, codes in operation.codes_by_status.items():
            assert codes, f"{operation.operation_id} {status} lists no code"
    validator = spec.validator_for({"$ref": "#/components/schemas/RunConflictProblem"})
    assert list(validator.iter_errors(_problem("RUN_PAUSED_FOR_LUNCH"))) == []


def test_every_listed_code_is_in_the_catalogue() -> None:
    catalogue = set(spec.catalogue())
    for operation in spec.operations().values():
        for status, codes in operation.codes_by_status.items():
            assert set(codes) <= catalogue, (operation.operation_id, status, set(codes) - catalogue)


def test_an_event_of_a_later_type_is_valid() -> None:
    later = {"type": "run.thinking", "runId": "run_x", "sequence": 3, "whatever": {"a": 1}}
    assert list(_event_data_validator().iter_errors(later)) == []


def test_a_known_event_type_in_the_wrong_shape_is_refused() -> None:
    # `output.delta` without its fields must not slip through as a "later" event.
    assert list(_event_data_validator().iter_errors({"type": "output.delta"}))


def test_later_run_event_excludes_exactly_the_known_types() -> None:
    known = set(SCHEMAS["RunEvent"]["discriminator"]["mapping"])
    excluded = set(SCHEMAS["LaterRunEvent"]["properties"]["type"]["not"]["enum"])
    assert excluded == known


def test_a_known_event_is_valid() -> None:
    delta = {"type": "output.delta", "runId": "run_local-host.x", "text": "Hel"}
    assert list(_event_data_validator().iter_errors(delta)) == []
    assert list(_event_data_validator().iter_errors({**delta, "extra": 1})), "a known type keeps its strict shape"
