"""generator/operations.py: each client's per-operation table (idempotency, routing id) comes from openapi.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from generator_support import check_generated, load_generator

ROOT = Path(__file__).resolve().parents[3]


generator = load_generator("operations")


def test_the_committed_tables_are_what_the_spec_generates() -> None:
    done = check_generated("operations")
    assert done.returncode == 0, done.stderr


def test_the_facts_are_the_specs() -> None:
    operations = {op.id: op for op in generator.load_operations()}

    keyed = {name for name, op in operations.items() if op.idempotency_key}
    assert keyed == {"createSession", "forkSession", "run", "streamRun", "submitRunActions", "streamRunActions"}
    assert operations["run"].routing_pointer == ("session", "id")
    assert operations["readSession"].routing_param == "sessionId"
    assert operations["streamRunEvents"].routing_param == "runId"
    assert operations["createSession"].routing_param is None and operations["createSession"].routing_pointer is None
    order = [op.id for op in generator.load_operations()]
    assert order.index("streamRun") < order.index("getRun"), "a literal path before a templated one"


def _spec_with(tmp_path: Path, operation: str, routing: object) -> Path:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text("utf-8"))
    for item in spec["paths"].values():
        for op in item.values():
            if isinstance(op, dict) and op.get("operationId") == operation:
                op["x-routing-id"] = routing
    path = tmp_path / "openapi.yaml"
    path.write_text(yaml.safe_dump(spec), "utf-8")
    return path


@pytest.mark.parametrize(
    ("operation", "routing", "message"),
    [
        ("readSession", {"in": "path", "name": "runId"}, r"readSession: x-routing-id: 'runId' is not a path parameter"),
        ("run", {"in": "body", "pointer": "/session/key"}, r"run: x-routing-id: the request body has no /session/key"),
        ("run", {"in": "query", "name": "x"}, r"run: x-routing-id: \{in: path"),
        ("createSession", {"in": "body", "pointer": "/provider"}, r"createSession: x-routing-id and the Agentic-Host"),
    ],
)
def test_a_routing_id_the_spec_cannot_back_is_refused_naming_the_operation(
    tmp_path: Path, operation: str, routing: object, message: str
) -> None:
    with pytest.raises(generator.OperationsError, match=message):
        generator.load_operations(_spec_with(tmp_path, operation, routing))


def test_operations_of_one_path_that_route_otherwise_are_refused() -> None:
    read = generator.Operation("readSession", "GET", "/v1/sessions/{sessionId}", False, "sessionId", None)
    delete = generator.Operation("deleteSession", "DELETE", "/v1/sessions/{sessionId}", False, None, None)

    with pytest.raises(generator.OperationsError, match=r"deleteSession: routes otherwise than readSession"):
        generator._check_paths_route_alike([read, delete])
