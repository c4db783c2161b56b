"""The scenario files themselves: what they name exists in openapi.yaml (the kit plays them, suite/)."""

from __future__ import annotations

from typing import Any

import pytest

from agentic_driver_conformance import checks, scenarios, spec

ALL = scenarios.all_scenarios()


def _steps(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for step in steps:
        found.append(step)
        found.extend(step.get("parallel", []))
    return found


@pytest.mark.parametrize("scenario", ALL, ids=[scenario.name for scenario in ALL])
def test_scenario_names_what_the_spec_defines(scenario: scenarios.Scenario) -> None:
    """Operations, path parameters and codes a scenario names exist in openapi.yaml."""
    operations = spec.operations()
    catalogue = set(spec.catalogue())
    for step in _steps(scenario.data["steps"]):
        if "call" in step:
            assert step["call"] in operations, f"unknown operationId {step['call']}"
            assert set(step.get("path", {})) == set(operations[step["call"]].path_parameters)
        for expect in [step.get("expect", {}), *step.get("outcomes", [])]:
            codes = expect.get("code", [])
            for code in [codes] if isinstance(codes, str) else codes:
                assert code in catalogue, f"{code} is not in the catalogue"
    assert set(scenario.data.get("codes", [])) <= catalogue


class _Streamed:
    """Just what ``_read_stream`` reads of an answer: its status and its body in the given reads."""

    status_code = 200

    def __init__(self, reads: list[bytes]) -> None:
        self.reads = reads

    def iter_bytes(self) -> list[bytes]:
        return self.reads


def _events(count: int) -> bytes:
    return b"".join(f'id: {i}\nevent: output.delta\ndata: {{"text":"{i}"}}\n\n'.encode() for i in range(1, count + 1))


@pytest.mark.parametrize("split", [0, 5, 40, 41])
def test_disconnect_after_events_keeps_exactly_that_many_even_when_one_read_brings_more(split: int) -> None:
    body = b": keep-alive\n\n" + _events(30)
    content, cut_short = scenarios._read_stream(_Streamed([body[:split], body[split:]]), 2)  # type: ignore[arg-type]

    assert cut_short
    assert [m["id"] for m in checks.parse_event_stream(content)] == ["1", "2"]
