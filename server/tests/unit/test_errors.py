"""The error catalogue, the exception tree, the problem bodies, and their agreement with openapi.yaml."""

from __future__ import annotations

import re
import typing
from pathlib import Path
from typing import Any

import pytest
import yaml

from agentic_driver import errors, models
from agentic_driver.errors import (
    CATALOGUE,
    DriverError,
    ErrorCode,
    PayloadTooLarge,
    RunCancelled,
    SessionBusy,
    SessionLimitExceeded,
    SessionNotFound,
    SessionRevisionConflict,
    SessionStoreFull,
    ValidationFailed,
)

SPEC: dict[str, Any] = yaml.safe_load((Path(__file__).resolve().parents[3] / "openapi.yaml").read_text("utf-8"))


def _all_subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_all_subclasses(sub)]
    return found


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        target: Any = SPEC
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def _narrowed_error_responses() -> list[tuple[str, int, list[str]]]:
    """(operation, status, codes) for every documented error response that lists its codes (``x-error-codes``)."""
    found = []
    for item in SPEC["paths"].values():
        for method in ("get", "put", "post", "delete", "patch"):
            if method not in item:
                continue
            operation = item[method]
            for status, response in operation["responses"].items():
                if int(status) < 400:
                    continue
                schema = _resolve(_resolve(response)["content"]["application/problem+json"]["schema"])
                codes = schema.get("x-error-codes")
                if codes:
                    found.append((operation["operationId"], int(status), codes))
    return found


def test_every_error_code_has_exactly_one_catalogue_entry() -> None:
    assert set(CATALOGUE) == set(ErrorCode)
    for code, spec in CATALOGUE.items():
        assert 400 <= spec.status < 600, code
        assert spec.title, code


GROUPS: dict[type[DriverError], set[int]] = {
    errors.NotFound: {404},
    errors.Conflict: {409},
    errors.Unprocessable: {422},
    errors.ProviderFailed: {429, 502, 503, 504},
    errors.RetryLater: {503},
}
"""Each group base (no code of its own) and the statuses its members may have."""


def _coded_classes() -> list[type[DriverError]]:
    """Every concrete error class: the ones that set their own ``code`` (the groups do not)."""
    return [cls for cls in _all_subclasses(DriverError) if "code" in vars(cls)]


def test_every_driver_error_class_carries_a_catalogued_code_and_every_code_has_its_class() -> None:
    classes = _coded_classes()

    assert {cls.code for cls in classes} == set(ErrorCode)
    assert len({cls.code for cls in classes}) == len(classes), "two classes share a code"
    for cls in classes:
        assert cls.code in CATALOGUE, cls
        assert cls.__name__ in errors.__all__, cls
        assert cls.__name__ in (errors.__doc__ or ""), f"{cls.__name__} is missing from the drawn tree"


def test_every_class_is_a_coded_class_or_a_group_and_each_group_holds_its_statuses() -> None:
    groups = [cls for cls in _all_subclasses(DriverError) if "code" not in vars(cls)]

    assert set(groups) == set(GROUPS)
    for group, statuses in GROUPS.items():
        members = [cls for cls in _coded_classes() if issubclass(cls, group)]
        assert members, group
        assert {CATALOGUE[cls.code].status for cls in members} <= statuses, group
        assert group.__name__ in errors.__all__
        assert group.__name__ in (errors.__doc__ or ""), f"{group.__name__} is missing from the drawn tree"


def test_every_provider_failure_code_and_only_those_are_provider_failed() -> None:
    failed = {cls.code.value for cls in _coded_classes() if issubclass(cls, errors.ProviderFailed)}

    assert failed == {code.value for code in ErrorCode if code.value.startswith("PROVIDER_")} - {"PROVIDER_NOT_FOUND"}


def test_the_spec_error_code_enum_is_exactly_the_catalogue() -> None:
    assert set(SPEC["components"]["schemas"]["ErrorCode"]["enum"]) == {code.value for code in ErrorCode}


def test_the_generated_error_code_type_is_exactly_the_catalogue() -> None:
    # `code` is open (a later code is any code-shaped string); the known codes are its Literal.
    annotation = models.Problem.model_fields["code"].annotation
    (known,) = [arg for arg in typing.get_args(annotation) if typing.get_origin(arg) is typing.Literal]
    generated = set(typing.get_args(known))

    assert generated == {code.value for code in ErrorCode}


def test_the_spec_documents_error_responses_for_every_operation() -> None:
    operations = {operation for operation, _, _ in _narrowed_error_responses()}

    assert operations == {
        "getReadiness",
        "getDiscovery",
        "createSession",
        "readSession",
        "deleteSession",
        "run",
        "streamRun",
        "submitRunActions",
        "streamRunActions",
        "cancelRun",
        "getRun",
        "streamRunEvents",
        "truncateSession",
        "forkSession",
    }


@pytest.mark.parametrize(
    ("operation", "status", "codes"),
    _narrowed_error_responses(),
    ids=lambda value: str(value) if not isinstance(value, list) else "",
)
def test_each_code_a_spec_response_allows_has_that_responses_status_in_the_catalogue(
    operation: str, status: int, codes: list[str]
) -> None:
    for code in codes:
        assert CATALOGUE[ErrorCode(code)].status == status, f"{operation} documents {code} under {status}"


def test_every_problem_example_in_the_spec_matches_the_catalogue_title_status_and_type() -> None:
    examples = []
    for response in SPEC["components"]["responses"].values():
        media = response["content"]["application/problem+json"]
        examples += [media["example"]] if "example" in media else [e["value"] for e in media["examples"].values()]

    assert len(examples) >= len(SPEC["components"]["responses"])
    for example in examples:
        spec = CATALOGUE[ErrorCode(example["code"])]
        assert (example["status"], example["title"]) == (spec.status, spec.title), example["code"]
        assert example["type"] == f"urn:agentic-driver:problem:{example['code']}"


def test_a_problem_body_has_the_rfc_9457_members_and_the_code() -> None:
    error = SessionNotFound("No session 'ses_x' for this caller.")

    body = error.problem("/v1/sessions/ses_x")

    assert body == {
        "type": "urn:agentic-driver:problem:SESSION_NOT_FOUND",
        "title": "Session not found",
        "status": 404,
        "code": "SESSION_NOT_FOUND",
        "detail": "No session 'ses_x' for this caller.",
        "instance": "/v1/sessions/ses_x",
    }
    assert error.problem() == {k: v for k, v in body.items() if k != "instance"}
    assert repr(error) == "SessionNotFound(SESSION_NOT_FOUND: \"No session 'ses_x' for this caller.\")"
    assert str(error) == error.detail


@pytest.mark.parametrize(
    ("error", "fields"),
    [
        pytest.param(
            SessionRevisionConflict("stale", current_revision=3), {"currentRevision": 3}, id="revision-conflict"
        ),
        pytest.param(
            SessionBusy("busy", active_run_id="run_1"), {"activeRunId": "run_1", "retryAfterSeconds": 1}, id="busy"
        ),
        pytest.param(RunCancelled("gone", reason="session_deleted"), {"reason": "session_deleted"}, id="cancelled"),
        pytest.param(
            SessionLimitExceeded("big", limit="maxMessages", maximum=100),
            {"limit": "maxMessages", "maximum": 100},
            id="limit",
        ),
        pytest.param(
            SessionStoreFull("full", maximum=1000, retry_after_seconds=60),
            {"limit": "maxEntries", "maximum": 1000, "retryAfterSeconds": 60},
            id="store-full",
        ),
        pytest.param(
            PayloadTooLarge("large", maximum=4096), {"limit": "maxBodyBytes", "maximum": 4096}, id="payload-too-large"
        ),
        pytest.param(
            ValidationFailed("bad", errors=[{"location": "body.input", "message": "Field required"}]),
            {"errors": [{"location": "body.input", "message": "Field required"}]},
            id="validation",
        ),
    ],
)
def test_code_specific_fields_appear_in_the_problem_and_fit_the_spec_problem_schema(
    error: DriverError, fields: dict[str, Any]
) -> None:
    body = error.problem("/v1/runs")

    assert {k: body[k] for k in fields} == fields
    assert set(body) == {"type", "title", "status", "code", "detail", "instance", *fields}
    assert models.Problem.model_validate(body).code == error.code.value


def _readme_error_rows() -> list[tuple[list[str], list[int]]]:
    """(codes, statuses) of each row of the error table in docs/errors.md (the README links to it)."""
    page = (Path(__file__).resolve().parents[3] / "docs" / "errors.md").read_text("utf-8")
    table = page.split("# Error codes and what to do", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in table.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        codes = re.findall(r"`([A-Z][A-Z_]+)`", cells[0]) if line.startswith("| `") else []
        if codes:
            rows.append((codes, [int(s) for s in re.findall(r"\d{3}", cells[1])]))
    return rows


def test_the_docs_error_table_lists_every_code_once_with_its_catalogue_status() -> None:
    rows = _readme_error_rows()
    listed = [code for codes, _ in rows for code in codes]

    assert sorted(listed) == sorted(code.value for code in ErrorCode), "each code exactly once"
    for codes, statuses in rows:
        assert {CATALOGUE[ErrorCode(code)].status for code in codes} == set(statuses), codes


def test_the_drawn_tree_gives_each_class_its_code_and_its_catalogue_status() -> None:
    drawn: dict[str, tuple[str, int | None]] = {}
    group_status: int | None = None
    for line in (errors.__doc__ or "").splitlines():
        found = re.match(r"    (│   |    )?[├└]── (\w+)\s+(?:(\d{3})\S*\s*)?([A-Z][A-Z_]+\b)?", line)
        if not found:
            continue
        nested, name, status, code = found.groups()
        own = int(status) if status else None
        if not nested:
            group_status = own
        if code is not None:
            drawn[name] = (code, own if own is not None else group_status)

    classes = _coded_classes()
    assert set(drawn) == {cls.__name__ for cls in classes}
    for cls in classes:
        assert drawn[cls.__name__] == (cls.code.value, CATALOGUE[cls.code].status), f"{cls.__name__} in the tree"
