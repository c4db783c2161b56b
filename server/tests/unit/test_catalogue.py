"""Every copy of the error-code list names exactly the codes of openapi.yaml's ``ErrorCode``.

The spec's ``x-error-table`` is the one place a code's status, title, group, members and fix-it text are written;
``make generate`` writes every copy from it: the host's ``error_table`` and ``error_classes``, the Python SDK's
``_code_errors``, Rust's ``error/kind.rs``, the Go sentinels, the TypeScript classes, ``docs/errors.md`` and the
SDK's fix-it texts (``make check-generated`` fails on a stale copy; ``test_error_table.py`` renders each). This
test reads the copies as they are loaded or written, so a stale one names its file and the fix; it also checks
that each host class sends exactly the code-specific fields that ``Problem``'s member descriptions name its code
for, and sits under the group the table gives it. Each client also checks its list in its own build
(TypeScript's ``satisfies``, Rust's exhaustive ``match``, Go's ``TestSentinelsCoverTheCatalogue``).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from agentic_driver.errors import (
    CATALOGUE,
    Conflict,
    DriverError,
    ErrorCode,
    NotFound,
    ProviderFailed,
    RetryLater,
    Unprocessable,
)

ROOT = Path(__file__).resolve().parents[3]


def spec_codes() -> set[str]:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text("utf-8"))
    return set(spec["components"]["schemas"]["ErrorCode"]["enum"])


def _between(path: str, start: str, end: str) -> str:
    """The text of ``path`` from the first ``start`` to the next ``end`` (both must be there)."""
    text = (ROOT / path).read_text("utf-8")
    assert start in text, f"{path} no longer has {start!r}; update {__file__}"
    head = text.split(start, 1)[1]
    assert end in head, f"{path} has no {end!r} after {start!r}; update {__file__}"
    return head.split(end, 1)[0]


def _pascal(code: str) -> str:
    """``SESSION_NOT_FOUND`` as the generated Rust enum spells it: ``SessionNotFound``."""
    return "".join(part.capitalize() for part in code.split("_"))


def _coded_classes(cls: type[DriverError]) -> list[type[DriverError]]:
    found: list[type[DriverError]] = []
    for sub in cls.__subclasses__():
        found += [sub] if "code" in vars(sub) else []
        found += _coded_classes(sub)
    return found


@dataclass(frozen=True)
class Copy:
    """One copy of the code list: where it is and how to read its codes."""

    path: str
    codes: Callable[[], set[str]]


def _rust_kinds() -> set[str]:
    kinds = _between("clients/rust/src/error/kind.rs", "impl ProblemKind {", "\n}\n")
    from_code, to_code = kinds.split("pub fn code(", 1)
    spelled = {_pascal(code): code for code in spec_codes()}
    read = {spelled.get(name, name) for name in re.findall(r"ErrorCode::(\w+) =>", from_code)}
    written = {spelled.get(name, name) for name in re.findall(r"=> ErrorCode::(\w+)", to_code)}
    assert read == written, f"clients/rust/src/error/kind.rs: from_code and code() differ on {read ^ written}"
    return read


def _sdk_codes() -> set[str]:
    from agentic_driver_sdk import CODE_ERRORS

    return set(CODE_ERRORS)


COPIES = [
    Copy("server/src/agentic_driver/error_classes.py", lambda: {cls.code.value for cls in _coded_classes(DriverError)}),
    Copy("clients/python/agentic_driver_sdk/_code_errors.py", _sdk_codes),
    Copy("clients/rust/src/error/kind.rs", _rust_kinds),
]


@pytest.mark.parametrize("copy", COPIES, ids=[f"{copy.path}#{index}" for index, copy in enumerate(COPIES)])
def test_each_code_list_names_exactly_the_spec_codes(copy: Copy) -> None:
    spec, listed = spec_codes(), copy.codes()

    missing, extra = sorted(spec - listed), sorted(listed - spec)
    assert not missing and not extra, (
        f"{copy.path} differs from openapi.yaml's ErrorCode enum: missing {missing}, not in the spec {extra}. "
        "To fix: give each code its row in ErrorCode's x-error-table, then make generate."
    )


_SAMPLES: dict[str, object] = {
    "int": 1,
    "int | None": 1,
    "str": "x",
    "str | None": "x",
    "list[dict[str, str]]": [],
    "list[dict[str, str]] | None": [],
}
_COMMON = {"type", "title", "status", "code", "detail", "instance", "requestId", "retryAfterSeconds"}


def _arguments(cls: type[DriverError]) -> dict[str, object]:
    """A sample for every keyword argument the class takes."""
    parameters = inspect.signature(cls.__init__).parameters.values()
    return {
        p.name: _SAMPLES[str(p.annotation)]
        for p in parameters
        if p.name not in ("self", "detail") and p.kind is p.KEYWORD_ONLY
    }


def _fields_the_server_sends() -> dict[str, set[str]]:
    """Code -> the code-specific members of its problem, from each class built with every argument it takes."""
    found: dict[str, set[str]] = {}
    for cls in _coded_classes(DriverError):
        fields = set(cls("detail", **_arguments(cls)).problem()) - _COMMON
        if fields:
            found[cls.code.value] = fields
    return found


def _fields_the_spec_describes() -> dict[str, set[str]]:
    """Code -> fields, from ``Problem``'s member descriptions ("`A`, `B`: ..."; ``maximum`` goes with ``limit``)."""
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text("utf-8"))
    members: dict[str, dict[str, str]] = spec["components"]["schemas"]["Problem"]["properties"]
    owners = {
        name: re.match(r"((?:`[A-Z_]+`(?:, )?)+):", member.get("description", "")) for name, member in members.items()
    }
    owners["maximum"] = owners["limit"]
    found: dict[str, set[str]] = {}
    for name, owner in owners.items():
        for code in re.findall(r"`([A-Z_]+)`", owner.group(1)) if owner else []:
            found.setdefault(code, set()).add(name)
    return found


def test_each_code_sends_exactly_the_fields_the_spec_gives_it() -> None:
    sent, described = _fields_the_server_sends(), _fields_the_spec_describes()

    differing = {code: (sent.get(code), described.get(code)) for code in sent.keys() | described.keys()}
    differing = {code: pair for code, pair in differing.items() if pair[0] != pair[1]}
    assert not differing, (
        f"code: (fields errors.py sends, fields openapi.yaml's Problem describes for it) differ: {differing}. "
        "Name the code at the start of each field's description in openapi.yaml, and in its x-error-table row."
    )


def test_a_list_that_lacks_a_code_fails_naming_its_file_and_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    (rust,) = [copy for copy in COPIES if copy.path == "clients/rust/src/error/kind.rs"]
    monkeypatch.setitem(globals(), "spec_codes", lambda: {code.value for code in ErrorCode} | {"ATTACHMENT_NEW"})

    with pytest.raises(
        AssertionError, match=r"rust/src/error/kind.rs differs .* missing \['ATTACHMENT_NEW'\].*then make generate"
    ):
        test_each_code_list_names_exactly_the_spec_codes(rust)


_GROUPS = {group.__name__: group for group in (NotFound, Conflict, Unprocessable, ProviderFailed, RetryLater)}


@pytest.mark.parametrize("code", list(ErrorCode))
def test_each_server_class_sits_under_its_tables_group_with_its_status(code: ErrorCode) -> None:
    (cls,) = [cls for cls in _coded_classes(DriverError) if cls.code is code]
    group = CATALOGUE[code].group
    groups = {name for name, parent in _GROUPS.items() if issubclass(cls, parent)}

    assert groups == ({group} if group else set()), (
        f"{cls.__name__} ({code}) is under {sorted(groups) or 'no group'}; openapi.yaml's x-error-table gives {group}"
    )
    assert cls("d", **_arguments(cls)).status == CATALOGUE[code].status
