"""Our Spectral ruleset catches what it promises: each rule fires on a copy of openapi.yaml broken for it.

run.py lints the real document; this test lints broken copies in one Spectral invocation and expects each
copy to be reported by exactly the rule it breaks (and the real document by none).
"""

from __future__ import annotations

import copy
import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from harness.paths import CONTRACT_DIR, ROOT, SPEC_PATH

SPECTRAL = CONTRACT_DIR / "node_modules" / ".bin" / "spectral"
RULESET = CONTRACT_DIR / "spectral" / "ruleset.yaml"


def _drop_401(doc: dict[str, Any]) -> None:
    del doc["paths"]["/v1/discovery"]["get"]["responses"]["401"]


def _plain_problem(doc: dict[str, Any]) -> None:
    doc["components"]["responses"]["RunTargetNotFound"]["content"]["application/problem+json"]["schema"] = {
        "$ref": "#/components/schemas/Problem"
    }


def _json_error(doc: dict[str, Any]) -> None:
    response = doc["components"]["responses"]["PayloadTooLarge"]
    response["content"] = {"application/json": response["content"]["application/problem+json"]}


def _unused_code(doc: dict[str, Any]) -> None:
    doc["components"]["schemas"]["ErrorCode"]["enum"].append("SESSION_LOST")


def _outside_code_in_enum(doc: dict[str, Any]) -> None:
    doc["components"]["schemas"]["RunNotFoundProblem"]["x-error-codes"].append("ROUTE_NOT_FOUND")


def _code_with_two_statuses(doc: dict[str, Any]) -> None:
    doc["components"]["schemas"]["RunNotFoundProblem"]["x-error-codes"].append("SESSION_BUSY")


def _no_example(doc: dict[str, Any]) -> None:
    del doc["paths"]["/v1/discovery"]["get"]["responses"]["200"]["content"]["application/json"]["example"]


BROKEN: dict[str, tuple[str, Callable[[dict[str, Any]], None]]] = {
    "bearer-without-401": ("bearer-operations-document-401", _drop_401),
    "error-without-problem-enum": ("error-responses-use-problem-schema", _plain_problem),
    "error-as-plain-json": ("error-responses-use-problem-schema", _json_error),
    "catalogue-code-unused": ("catalogue-codes-in-some-enum", _unused_code),
    "outside-code-in-an-operation": ("catalogue-codes-in-some-enum", _outside_code_in_enum),
    "code-with-two-statuses": ("catalogue-codes-in-some-enum", _code_with_two_statuses),
    "answer-without-example": ("operations-have-examples", _no_example),
}


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[str]]:
    directory = tmp_path_factory.mktemp("spectral")
    original = yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8"))
    files = {"original": SPEC_PATH}
    for name, (_, breaker) in BROKEN.items():
        document = copy.deepcopy(original)
        breaker(document)
        files[name] = directory / f"{name}.yaml"
        files[name].write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    completed = subprocess.run(
        [str(SPECTRAL), "lint", *map(str, files.values()), "--ruleset", str(RULESET), "-f", "json", "--quiet"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    results = json.loads(completed.stdout or "[]")
    found: dict[str, set[str]] = {name: set() for name in files}
    by_path = {str(Path(path).resolve()): name for name, path in files.items()}
    for result in results:
        found[by_path[str(Path(result["source"]).resolve())]].add(result["code"])
    return found


def test_the_contract_passes_the_ruleset(reports: dict[str, set[str]]) -> None:
    assert reports["original"] == set()


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_each_rule_catches_its_break(reports: dict[str, set[str]], name: str) -> None:
    assert reports[name] == {BROKEN[name][0]}
