"""generator/operations.py's Rust table (clients/rust/src/operations.rs): one const per operation, from openapi.yaml,
that each method of the Rust client builds its call from (``call.rs``)."""

from __future__ import annotations

from pathlib import Path

from generator_support import load_generator

ROOT = Path(__file__).resolve().parents[3]
TABLE = ROOT / "clients/rust/src/operations.rs"


generator = load_generator("operations")


def _flat(source: str) -> str:
    """The Rust source on one line, single-spaced (so the checks do not depend on how rustfmt breaks lines)."""
    return " ".join(source.split())


def test_the_committed_rust_table_is_what_the_spec_renders() -> None:
    assert TABLE.read_text("utf-8") == generator.render_rust(generator.load_operations())


def test_each_operation_is_a_const_with_its_facts_and_is_listed() -> None:
    operations = generator.load_operations()
    flat = _flat(TABLE.read_text("utf-8"))

    assert (
        'pub(crate) const STREAM_RUN_EVENTS: Operation = Operation { id: "streamRunEvents", method: "GET", '
        'path: "/v1/runs/{runId}/events", takes_idempotency_key: false, routing: Routing::PathParam("runId"), };'
    ) in flat
    assert (
        'pub(crate) const RUN: Operation = Operation { id: "run", method: "POST", path: "/v1/runs", '
        'takes_idempotency_key: true, routing: Routing::BodyPointer(&["session", "id"]), };'
    ) in flat
    assert 'id: "createSession", method: "POST", path: "/v1/sessions", takes_idempotency_key: true, ' in flat
    assert "routing: Routing::None, };" in flat
    listed = ", ".join(f"&{generator._rust_name(op)}" for op in operations)
    assert f"pub(crate) const OPERATIONS: [&Operation; {len(operations)}] = [ {listed}, ];" in flat


def test_a_new_operation_is_a_new_row() -> None:
    things = generator.Operation("listThingParts", "GET", "/v1/things/{thingId}/parts", False, "thingId", None)

    flat = _flat(generator.render_rust([things]))
    assert (
        'pub(crate) const LIST_THING_PARTS: Operation = Operation { id: "listThingParts", method: "GET", '
        'path: "/v1/things/{thingId}/parts", takes_idempotency_key: false, routing: Routing::PathParam("thingId"), };'
    ) in flat
    assert "pub(crate) const OPERATIONS: [&Operation; 1] = [&LIST_THING_PARTS];" in flat
