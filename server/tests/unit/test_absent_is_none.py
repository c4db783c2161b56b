"""The Python client reads a property an answer left out as None (its ``Unset`` is ``None``'s type), which is
lossless only while no property of the contract is both optional and nullable: the generator refuses one."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from agentic_driver_client.models import ApprovalDecision, ForkSessionRequest, RunStartedEvent
from agentic_driver_client.types import UNSET, Unset
from generator_support import load_generator

ROOT = Path(__file__).resolve().parents[3]
generator = load_generator("generate")


def test_the_published_spec_has_no_property_both_optional_and_nullable() -> None:
    assert generator.optional_and_nullable(yaml.safe_load((ROOT / "openapi.yaml").read_text("utf-8"))) == []


@pytest.mark.parametrize(
    "schema",
    [
        {"type": ["string", "null"]},
        {"oneOf": [{"$ref": "#/components/schemas/SessionInfo"}, {"type": "null"}]},
        {"anyOf": [{"type": "integer"}, {"type": "null"}]},
    ],
)
def test_an_optional_nullable_property_is_found_by_its_path(schema: dict[str, object]) -> None:
    spec = {
        "components": {
            "schemas": {
                "Outer": {
                    "type": "object",
                    "required": ["kept"],
                    "properties": {
                        "kept": {"type": ["string", "null"]},  # required: its null is not its absence
                        "inner": {"type": "object", "properties": {"blurred": schema}},
                    },
                }
            }
        }
    }

    assert generator.optional_and_nullable(spec) == ["/components/schemas/Outer/properties/inner/properties/blurred"]


def test_an_absent_property_reads_none_and_is_still_left_out_when_sent() -> None:
    started = RunStartedEvent.from_dict({"type": "run.started", "runId": "run_a.1"})
    decision = ApprovalDecision.from_dict({"callId": "call_1", "approve": False})

    assert started.session is None and decision.reason is None
    assert isinstance(started.session, Unset) and started.session is UNSET, "the generated code's own checks"
    assert started.to_dict() == {"type": "run.started", "runId": "run_a.1"}
    assert ForkSessionRequest().to_dict() == {}, "an optional request member left as None is not sent as null"
    assert ForkSessionRequest(revision=0).to_dict() == {"revision": 0}
