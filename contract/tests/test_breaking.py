"""The breaking-change gate on copies of the contract: breaks fail unless declared; allowed additions pass.

Each test takes the document as it is now as the baseline (as release 0.1.0), changes a copy, and runs
the gate (and so the pinned oasdiff) on the pair, with a changelog of its own.
"""

from __future__ import annotations

import copy
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import breaking  # noqa: E402

Document = dict[str, Any]
NEW_CODE = "QUOTA_EXHAUSTED_SOMEWHERE_NEW"
BASE_VERSION = "0.1.0"


@pytest.fixture(scope="module")
def published() -> Document:
    if not breaking.OASDIFF.is_file():
        pytest.fail(f"{breaking.OASDIFF} is missing: run `make setup-oasdiff`")
    loaded: Document = yaml.safe_load(breaking.SPEC.read_text(encoding="utf-8"))
    return loaded


@pytest.fixture
def workspace(tmp_path: Path, published: Document) -> Iterator[Callable[..., tuple[bool, str]]]:
    # The document as it is now, as if released as 0.1.0 (so the tests do not depend on its version).
    released = copy.deepcopy(published)
    released["info"]["version"] = BASE_VERSION
    baseline = tmp_path / "baseline.yaml"
    baseline.write_text(yaml.safe_dump(released, sort_keys=False, allow_unicode=True), encoding="utf-8")

    def run(change: Callable[[Document], None], changelog: str = "# Changelog\n") -> tuple[bool, str]:
        revised = copy.deepcopy(released)
        change(revised)
        spec = tmp_path / "openapi.yaml"
        spec.write_text(yaml.safe_dump(revised, sort_keys=False, allow_unicode=True), encoding="utf-8")
        (tmp_path / "CHANGELOG.md").write_text(changelog, encoding="utf-8")
        passed, report = breaking.gate(baseline, spec, tmp_path / "CHANGELOG.md")
        return passed, "\n".join(report)

    yield run


def _schemas(document: Document) -> Document:
    schemas: Document = document["components"]["schemas"]
    return schemas


def _enums(node: Any) -> Iterator[list[Any]]:
    """Every enum list under ``node``: a closed enum today; inside anyOf/oneOf, or ``x-extensible-enum``
    (which oasdiff reads as open by itself), once codes are open."""
    if isinstance(node, dict):
        for key in ("enum", "x-extensible-enum"):
            if isinstance(node.get(key), list):
                yield node[key]
        for value in node.values():
            yield from _enums(value)
    elif isinstance(node, list):
        for value in node:
            yield from _enums(value)


def new_required_request_field(document: Document) -> None:
    request = _schemas(document)["CreateSessionRequest"]
    request["properties"]["label"] = {"type": "string"}
    request["required"].append("label")


def removed_response_field(document: Document) -> None:
    info = _schemas(document)["SessionInfo"]
    info["required"].remove("runCount")
    del info["properties"]["runCount"]


def new_error_code(document: Document) -> None:
    """A code in the catalogue and in the problem ``run`` answers with 503."""
    schemas = _schemas(document)
    lists = [*_enums(schemas["ErrorCode"]), schemas["RunUnavailableProblem"].get("x-error-codes")]
    assert all(isinstance(values, list) for values in lists), "update this test to the document's new shape"
    for values in lists:
        values.append(NEW_CODE)


def new_event_type(document: Document) -> None:
    schemas = _schemas(document)
    schemas["RunNoteEvent"] = {
        "type": "object",
        "required": ["type", "note"],
        "properties": {"type": {"type": "string", "const": "run.note"}, "note": {"type": "string"}},
    }
    union = schemas["RunEvent"]
    branches = union.get("oneOf") or union.get("anyOf")
    assert isinstance(branches, list), "RunEvent is no union: update this test to the document's new shape"
    branches.append({"$ref": "#/components/schemas/RunNoteEvent"})
    if "discriminator" in union and "mapping" in union["discriminator"]:
        union["discriminator"]["mapping"]["run.note"] = "#/components/schemas/RunNoteEvent"
    schemas["LaterRunEvent"]["properties"]["type"]["not"]["enum"].append("run.note")


def new_optional_response_field(document: Document) -> None:
    _schemas(document)["SessionInfo"]["properties"]["label"] = {"type": "string"}


def bumped(version: str) -> Callable[[Document], None]:
    def change(document: Document) -> None:
        removed_response_field(document)
        document["info"]["version"] = version

    return change


def test_a_newly_required_request_field_fails_the_gate(workspace: Callable[..., tuple[bool, str]]) -> None:
    passed, report = workspace(new_required_request_field)
    assert not passed
    assert "createSession (POST /v1/sessions): added the new required request property `label`" in report
    assert "[new-required-request-property]" in report
    assert "a break needs at least 0.2.0" in report


def test_a_removed_response_field_fails_the_gate(workspace: Callable[..., tuple[bool, str]]) -> None:
    passed, report = workspace(removed_response_field)
    assert not passed
    assert "readSession (GET /v1/sessions/{sessionId}): removed the required property `session/runCount`" in report
    assert "[response-required-property-removed]" in report


def test_a_new_error_code_passes(workspace: Callable[..., tuple[bool, str]]) -> None:
    passed, report = workspace(new_error_code)
    assert passed, report
    assert "no breaking change" in report
    assert "changes the evolution policy allows" in report, "the new code was seen, and allowed"
    assert NEW_CODE not in report, "allowed additions are counted, not listed"


def test_oasdiff_alone_rates_a_new_response_enum_value_an_error(tmp_path: Path, published: Document) -> None:
    # Why contract/oasdiff-levels.txt exists: with its own defaults the pinned oasdiff fails a new code.
    revised = copy.deepcopy(published)
    new_error_code(revised)
    spec = tmp_path / "openapi.yaml"
    spec.write_text(yaml.safe_dump(revised, sort_keys=False), encoding="utf-8")
    rated = {(c.rule, c.level) for c in breaking.changes(breaking.SPEC, spec, levels=None) if c.level >= breaking.ERR}
    assert ("response-property-enum-value-added", breaking.ERR) in rated


def test_a_new_event_type_passes(workspace: Callable[..., tuple[bool, str]]) -> None:
    passed, report = workspace(new_event_type)
    assert passed, report
    assert "changes the evolution policy allows" in report


def test_a_new_optional_response_field_passes_silently(workspace: Callable[..., tuple[bool, str]]) -> None:
    passed, report = workspace(new_optional_response_field)
    assert passed, report
    assert report == f"breaking: no breaking change against the baseline of {BASE_VERSION}"


DECLARED = """# Changelog

## [0.2.0] - 2026-12-01

### Breaking
- `SessionInfo.runCount` is gone: `cancelRun`, `createSession`, `forkSession`, `getRun`, `readSession`, `run`,
  `streamRun`, `streamRunActions`, `streamRunEvents`, `submitRunActions` and `truncateSession` no longer answer it.
"""


def test_a_declared_break_passes(workspace: Callable[..., tuple[bool, str]]) -> None:
    passed, report = workspace(bumped("0.2.0"), DECLARED)
    assert passed, report
    assert "declared: version 0.2.0, named in CHANGELOG.md" in report


def test_a_bump_without_a_changelog_entry_fails(workspace: Callable[..., tuple[bool, str]]) -> None:
    passed, report = workspace(bumped("0.2.0"), "# Changelog\n\n## [0.2.0]\n\n### Added\n- things\n")
    assert not passed
    assert "has no ### Breaking part in a ## [0.2.0] section" in report


def test_a_changelog_that_leaves_an_operation_out_fails(workspace: Callable[..., tuple[bool, str]]) -> None:
    passed, report = workspace(bumped("0.2.0"), DECLARED.replace("`readSession`, ", ""))
    assert not passed
    assert report.endswith("does not name: `readSession`")


def test_a_patch_bump_does_not_declare_a_break(workspace: Callable[..., tuple[bool, str]]) -> None:
    passed, report = workspace(bumped("0.1.1"), DECLARED.replace("0.2.0", "0.1.1"))
    assert not passed
    assert "info.version is 0.1.1: a break needs at least 0.2.0" in report


@pytest.mark.parametrize(
    ("base", "revision", "declares"),
    [
        ("0.1.0", "0.2.0", True),
        ("0.1.0", "1.0.0", True),
        ("0.1.0", "0.1.9", False),
        ("1.4.2", "1.5.0", False),
        ("1.4.2", "2.0.0", True),
        ("1.4.2", "1.4.2", False),
    ],
)
def test_semantic_versioning_of_a_break(base: str, revision: str, declares: bool) -> None:
    assert breaking.bump_declares_a_break(base, revision) is declares


def test_the_command_exits_1_on_a_break_and_2_when_oasdiff_cannot_read(tmp_path: Path, published: Document) -> None:
    revised = copy.deepcopy(published)
    removed_response_field(revised)
    spec = tmp_path / "openapi.yaml"
    spec.write_text(yaml.safe_dump(revised, sort_keys=False), encoding="utf-8")
    script = [sys.executable, str(HERE.parent / "breaking.py"), "--spec"]
    done = subprocess.run([*script, str(spec)], capture_output=True, text=True, check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    broken = tmp_path / "broken.yaml"
    broken.write_text("openapi: 3.1.0\npaths: [not, a, map]\n", encoding="utf-8")
    done = subprocess.run([*script, str(broken)], capture_output=True, text=True, check=False)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "oasdiff failed" in done.stderr


def test_a_missing_oasdiff_is_named_with_its_set_up_target(tmp_path: Path) -> None:
    script = [sys.executable, str(HERE.parent / "breaking.py"), "--oasdiff", str(tmp_path / "oasdiff")]
    done = subprocess.run(script, capture_output=True, text=True, check=False)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "make setup-oasdiff" in done.stderr and "Traceback" not in done.stderr
