"""The Python SDK's class per code (``_code_errors.py``), rendered from openapi.yaml's ``x-error-table``.

A rendered module is run as a module of the SDK package (its bases are the SDK's own), so each test reads the
classes a new row would give the SDK without touching the committed file.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import agentic_driver_sdk as sdk
import httpx
import pytest
from agentic_driver_sdk._fix_it import FIX_IT
from generator_support import load_generator, spec_with

ROOT = Path(__file__).resolve().parents[3]
TARGET = "clients/python/agentic_driver_sdk/_code_errors.py"

error_table = load_generator("error_table")
error_python = load_generator("error_python")


def _spec_with(tmp_path: Path, rows: dict[str, dict[str, object]], carried_by: dict[str, str] | None = None) -> Path:
    """openapi.yaml with ``rows``; each ``Problem`` member of ``carried_by`` names its code in its description."""
    return spec_with(tmp_path, rows, describe=carried_by is not None)


def _rendered(spec: Path | None = None) -> str:
    return str(error_python.render_python(error_table.load_table(spec) if spec else error_table.load_table()))


def _as_sdk_module(source: str) -> ModuleType:
    """``source`` run as ``agentic_driver_sdk._code_errors_under_test``: its relative imports are the SDK's."""
    module = ModuleType("agentic_driver_sdk._code_errors_under_test")
    module.__package__ = "agentic_driver_sdk"
    exec(compile(source, TARGET, "exec"), module.__dict__)
    return module


def _answer(status: int, problem: dict[str, Any]) -> httpx.Response:
    return httpx.Response(status, json=problem, request=httpx.Request("GET", "http://host/v1/x"))


def test_a_new_unprocessable_row_gets_a_class_under_its_status_with_a_property_per_optional_field(
    tmp_path: Path,
) -> None:
    row = {
        "status": 422,
        "title": "Attachment new",
        "group": "Unprocessable",
        "fix": "Send `another`.",
        "optional": ["provider"],
    }
    module = _as_sdk_module(_rendered(_spec_with(tmp_path, {"ATTACHMENT_NEW": row}, {"provider": "ATTACHMENT_NEW"})))

    cls = module.CODE_ERRORS["ATTACHMENT_NEW"]
    assert cls.__name__ == "AttachmentNewError" and "AttachmentNewError" in module.__all__
    assert cls.__bases__ == (sdk.UnprocessableEntityError,)
    assert cls.__doc__ == "``ATTACHMENT_NEW``: Send ``another``."
    problem = {"code": "ATTACHMENT_NEW", "detail": "d", "provider": "echo"}
    assert cls(_answer(422, problem), problem).provider == "echo"
    assert cls(_answer(422, {**problem, "provider": 3}), {**problem, "provider": 3}).provider is None
    assert cls not in module.REQUIRED_FIELDS


@pytest.mark.parametrize(
    ("status", "group", "bases"),
    [
        (502, "ProviderFailed", (sdk.InternalServerError, sdk.ProviderFailedError)),
        (429, "ProviderFailed", (sdk.RateLimitError, sdk.ProviderFailedError)),
        (503, "RetryLater", (sdk.InternalServerError, sdk.RetryLaterError)),
        # a group the status class already is, and a group with no status class to go with
        (404, "NotFound", (sdk.NotFoundError,)),
        (410, "Conflict", (sdk.ConflictError,)),
        (403, None, (sdk.APIStatusError,)),
    ],
)
def test_a_row_is_under_its_status_class_and_then_its_group(
    tmp_path: Path, status: int, group: str | None, bases: tuple[type, ...]
) -> None:
    row = {"status": status, "title": "New", "group": group, "fix": "Wait."}
    module = _as_sdk_module(_rendered(_spec_with(tmp_path, {"NEW_CODE": row})))

    assert module.NewCodeError.__bases__ == bases


def test_a_guaranteed_field_is_a_typed_attribute_and_required_for_the_class(tmp_path: Path) -> None:
    row = {"status": 409, "title": "Held", "group": "Conflict", "fix": "Wait.", "fields": ["activeRunId"]}
    module = _as_sdk_module(_rendered(_spec_with(tmp_path, {"SESSION_HELD": row}, {"activeRunId": "SESSION_HELD"})))

    cls = module.SessionHeldError
    assert module.REQUIRED_FIELDS[cls] == (("activeRunId", str),)
    assert cls.__annotations__ == {"active_run_id": "str"}
    problem = {"code": "SESSION_HELD", "detail": "d", "activeRunId": "run_1"}
    assert cls(_answer(409, problem), problem).active_run_id == "run_1"


def test_the_sdk_has_each_rows_class_in_the_tables_order_under_its_bases() -> None:
    rows = error_table.load_table()

    assert list(sdk.CODE_ERRORS) == [row.code for row in rows]
    for row in rows:
        cls = sdk.CODE_ERRORS[row.code]
        assert (cls.__name__, tuple(base.__name__ for base in cls.__bases__)) == (
            row.error_class,
            error_python.bases(row),
        )


def test_each_class_reads_in_its_source_what_the_sdk_shows_at_run_time() -> None:
    """The generated docstring is the fix-it text ``_exceptions`` gives the class (wrapped), without the note."""
    module = _as_sdk_module(_rendered())

    for code, cls in module.CODE_ERRORS.items():
        unwrapped = " ".join(line.strip() for line in (cls.__doc__ or "").splitlines())
        assert unwrapped == f"``{code}``: {FIX_IT[code]}", code
        assert (sdk.CODE_ERRORS[code].__doc__ or "").startswith(unwrapped)


def test_a_field_that_would_hide_an_attribute_every_error_has_is_refused() -> None:
    row = error_table.Row("NEW_CODE", 422, "New", None, "Fix.", optional=(error_table.Field("headers", "string"),))

    with pytest.raises(ValueError, match=r"NEW_CODE: field 'headers' would hide APIStatusError.headers"):
        error_python.render_python([row])


RUFF = Path(sys.executable).parent / "ruff"


@pytest.mark.skipif(not RUFF.exists(), reason="ruff is not installed beside this Python")
def test_the_rendered_module_passes_ruff_as_it_is_even_with_long_rows(tmp_path: Path) -> None:
    fields = ["currentRevision", "activeRunId", "hostId", "ownerHostId", "firstEventId"]
    row = {"status": 409, "title": "Long", "group": "Conflict", "fix": "Wait. " * 40, "fields": fields}
    code = "A_VERY_LONG_NEW_CODE_THAT_NAMES_EVERY_FIELD"
    source = _rendered(_spec_with(tmp_path, {code: row}, dict.fromkeys(fields, code)))

    for command in (["check"], ["format", "--check", "--diff"]):
        done = subprocess.run(
            [str(RUFF), *command, "--stdin-filename", TARGET, "-"],
            input=source,
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
