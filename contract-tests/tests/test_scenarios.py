"""The scenario files themselves: what they name exists in openapi.yaml (the kit plays them, suite/)."""

from __future__ import annotations

import pytest

from agentic_driver_conformance import scenarios, spec

ALL = scenarios.all_scenarios()


def _steps(steps: list[dict]) -> list[dict]:
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
