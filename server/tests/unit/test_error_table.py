"""openapi.yaml's ``x-error-table``, the one place a code's facts are written, and what is generated from it."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

import pytest
import yaml
from generator_support import check_generated, load_generator, spec_with

from agentic_driver.error_base import Unprocessable
from agentic_driver.error_table import CATALOGUE, WHAT_TO_DO, ErrorCode

ROOT = Path(__file__).resolve().parents[3]


generator = load_generator("error_table")
error_server = load_generator("error_server")


def _spec_with(tmp_path: Path, change: dict[str, dict[str, object]], enum_extra: str | None = None) -> Path:
    return spec_with(tmp_path, change, enum_only=(enum_extra,) if enum_extra and enum_extra not in change else ())


def test_every_generated_copy_is_what_the_table_renders() -> None:
    done = check_generated("error_table")
    assert done.returncode == 0, done.stderr


def test_the_server_catalogue_is_the_table_in_the_enums_order() -> None:
    rows = generator.load_table()

    assert [row.code for row in rows] == [code.value for code in ErrorCode]
    for row in rows:
        code = ErrorCode(row.code)
        assert (CATALOGUE[code].status, CATALOGUE[code].title, CATALOGUE[code].group) == (
            row.status,
            row.title,
            row.group,
        )
        assert WHAT_TO_DO[code] == row.fix


@pytest.mark.parametrize(
    ("change", "extra", "message"),
    [
        ({}, "ATTACHMENT_NEW", r"only in the enum \['ATTACHMENT_NEW'\]"),
        ({"HOST_BUSY": {"status": 503, "title": "Host busy"}}, None, r"HOST_BUSY: title and fix are required"),
        ({"HOST_BUSY": {"status": 200, "title": "t", "fix": "f"}}, None, r"HOST_BUSY.status: an HTTP error status"),
        ({"HOST_BUSY": {"status": 503, "title": "t", "fix": "f", "group": "Busy"}}, None, r"HOST_BUSY.group: one of"),
        ({"HOST_BUSY": {"status": 503, "title": "t", "fix": "f", "retry": 1}}, None, r"unknown keys \['retry'\]"),
    ],
)
def test_a_table_it_cannot_use_is_refused_naming_the_row(
    tmp_path: Path, change: dict[str, object], extra: str | None, message: str
) -> None:
    with pytest.raises(generator.TableError, match=message):
        generator.load_table(_spec_with(tmp_path, change, extra))


def test_a_new_row_is_all_it_takes_for_the_generated_copies(tmp_path: Path) -> None:
    row = {"status": 422, "title": "Attachment new", "group": "Unprocessable", "fix": "Send `another` one."}
    rows = generator.load_table(_spec_with(tmp_path, {"ATTACHMENT_NEW": row}, "ATTACHMENT_NEW"))

    server, go, typescript = generator.render_server(rows), generator.render_go(rows), generator.render_typescript(rows)
    assert 'ATTACHMENT_NEW = "ATTACHMENT_NEW"' in server
    assert 'ErrorCode.ATTACHMENT_NEW: CodeSpec(422, "Attachment new", "Unprocessable")' in server
    assert "ErrAttachmentNew = &CodeError{ErrorCodeATTACHMENTNEW}" in go
    assert "// ErrAttachmentNew: 422 ATTACHMENT_NEW. Send another one." in go
    assert "export class AttachmentNewError extends UnprocessableError<'ATTACHMENT_NEW'> {}" in typescript
    assert "  ATTACHMENT_NEW: AttachmentNewError,\n" in typescript


def test_a_field_the_table_names_must_be_a_typed_problem_member(tmp_path: Path) -> None:
    row = {"status": 409, "title": "Session busy", "group": "Conflict", "fix": "Wait.", "fields": ["runningId"]}

    with pytest.raises(generator.TableError, match=r"SESSION_BUSY.fields: 'runningId' is no code-specific member"):
        generator.load_table(_spec_with(tmp_path, {"SESSION_BUSY": row}))
    typed = {row.code: [(f.name, f.type) for f in row.fields] for row in generator.load_table() if row.fields}
    assert typed["SESSION_BUSY"] == [("activeRunId", "string")]
    assert typed["RUN_EVENTS_EXPIRED"] == [("firstEventId", "integer")]


def test_optional_fields_are_typed_and_kept_apart_from_the_guaranteed_ones() -> None:
    rows = {row.code: row for row in generator.load_table()}

    assert [(f.name, f.type, f.minimum) for f in rows["ATTACHMENT_UNSUPPORTED"].optional] == [
        ("attachment", "integer", 0),
        ("mediaType", "string", None),
        ("provider", "string", None),
        ("limit", "string", None),
        ("maximum", "integer", None),
    ]
    assert [(f.name, f.type) for f in rows["VALIDATION_ERROR"].optional] == [("errors", "issues")]
    assert [f.snake for f in rows["MISDIRECTED_REQUEST"].fields] == ["host_id", "owner_host_id"]


def _row_of(code: str) -> dict[str, object]:
    table = yaml.safe_load((ROOT / "openapi.yaml").read_text("utf-8"))["components"]["schemas"]["ErrorCode"]
    row: dict[str, object] = dict(table["x-error-table"][code])
    return row


@pytest.mark.parametrize(
    ("code", "change", "message"),
    [
        # a member the description gives a code, left out of that code's row
        ("HOST_UNAVAILABLE", {"optional": []}, r"Problem.ownerHostId: its description names \['HOST_UNAVAILABLE', "),
        # a member given to a code its description does not name
        ("SESSION_BUSY", {"optional": ["limit", "maximum"]}, r"Problem.limit: its description names"),
        # guaranteed and optional at once
        ("SESSION_BUSY", {"optional": ["activeRunId"]}, r"\['activeRunId'\] both guaranteed and optional"),
        # every answer's members are nobody's field
        ("SESSION_BUSY", {"optional": ["retryAfterSeconds"]}, r"'retryAfterSeconds' is no code-specific member"),
    ],
)
def test_the_rows_and_the_problem_descriptions_name_the_same_codes(
    tmp_path: Path, code: str, change: dict[str, object], message: str
) -> None:
    with pytest.raises(generator.TableError, match=message):
        generator.load_table(_spec_with(tmp_path, {code: {**_row_of(code), **change}}))


def test_a_new_row_is_a_server_class_under_its_group_taking_its_members(tmp_path: Path) -> None:
    row = {
        "status": 422,
        "title": "Attachment new",
        "group": "Unprocessable",
        "fix": "Send `another` one.",
        "optional": ["mediaType"],
    }
    spec = _spec_with(tmp_path, {"ATTACHMENT_NEW": row}, "ATTACHMENT_NEW")
    described = yaml.safe_load(spec.read_text("utf-8"))
    member = described["components"]["schemas"]["Problem"]["properties"]["mediaType"]
    member["description"] = member["description"].replace(
        "`ATTACHMENT_UNSUPPORTED`", "`ATTACHMENT_UNSUPPORTED`, `ATTACHMENT_NEW`"
    )
    spec.write_text(yaml.safe_dump(described), "utf-8")

    source = error_server.render_server_classes(generator.load_table(spec))
    assert "class AttachmentNew(Unprocessable):" in source
    assert '"""422 ``ATTACHMENT_NEW``: Send `another` one."""' in source
    codes = StrEnum("ErrorCode", [(row.code, row.code) for row in generator.load_table(spec)])
    namespace: dict[str, object] = {"ErrorCode": codes}
    exec(compile(_importable(source), "error_classes.py", "exec"), namespace)
    new = namespace["AttachmentNew"]("refused", media_type="image/x")  # type: ignore[operator]
    assert isinstance(new, Unprocessable) and new.code == "ATTACHMENT_NEW"
    assert new.fields == {"mediaType": "image/x"} and new.media_type == "image/x"
    assert namespace["AttachmentNew"]("refused").fields == {}, "an unset member is not sent"  # type: ignore[operator]


def _importable(source: str) -> str:
    """The rendered module against the installed package (its code list is the test's own)."""
    return source.replace("from .error_base", "from agentic_driver.error_base").replace(
        "from .error_table import ErrorCode\n", ""
    )


def test_the_host_defaults_must_name_optional_members_of_a_known_code(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(error_server.DEFAULTS, "SESSION_BUSY", {"limit": '"maxSessions"'})

    with pytest.raises(ValueError, match=r"DEFAULTS\['SESSION_BUSY'\]: \['limit'\] are not optional members"):
        error_server.render_server_classes(generator.load_table())
