"""generator/error_rust.py: the Rust client's ``ProblemKind`` (its variants, ``Fields``, ``from_code``, ``code`` and
``group_of``) is rendered from openapi.yaml's ``x-error-table``, so a new row needs no hand edit in Rust."""

from __future__ import annotations

import re
from pathlib import Path

from generator_support import check_generated, load_generator, spec_with

ROOT = Path(__file__).resolve().parents[3]
KINDS = ROOT / "clients/rust/src/error/kind.rs"


table = load_generator("error_table")
rust = load_generator("error_rust")


def _spec_with(tmp_path: Path, code: str, row: dict[str, object]) -> Path:
    """The spec with one more code, its row, and its name opening each member's description the row lists."""
    return spec_with(tmp_path, {code: row}, describe=True)


def _flat(source: str) -> str:
    """The Rust source on one line, single-spaced (so the checks do not depend on how rustfmt breaks lines)."""
    return " ".join(source.split())


def test_the_committed_kinds_are_what_the_table_renders() -> None:
    assert KINDS.read_text("utf-8") == rust.render_rust_kinds(table.load_table())
    done = check_generated("error_table")
    assert done.returncode == 0, done.stderr


def test_a_new_row_is_a_variant_with_its_fields_and_its_arms(tmp_path: Path) -> None:
    row = {
        "status": 422,
        "title": "Attachment new",
        "group": "Unprocessable",
        "fix": "Send `another` one.",
        "fields": ["firstEventId"],
        "optional": ["limit", "maximum"],
    }
    source = rust.render_rust_kinds(table.load_table(_spec_with(tmp_path, "ATTACHMENT_NEW", row)))
    flat = _flat(source)

    assert "    /// 422 `ATTACHMENT_NEW`: Send `another` one.\n" in source
    assert "AttachmentNew { first_event_id: u64, limit: Option<String>, maximum: Option<i64> }," in flat
    read = (
        r"ErrorCode::AttachmentNew => \{? ?ProblemKind::AttachmentNew \{ first_event_id: fields\.first_event_id\?, "
        r"limit: fields\.limit\.clone\(\), maximum: fields\.maximum,? \}( \})?,"
    )
    assert re.search(read, flat), "from_code reads the guaranteed field with ?, the optional ones as they are"
    assert "ProblemKind::AttachmentNew { .. } => ErrorCode::AttachmentNew," in flat
    assert "ErrorCode::AttachmentNew => ProblemGroup::Unprocessable," in flat
    assert flat.count("pub(super) first_event_id: Option<u64>,") == 1, "Fields holds each member once"


def test_a_row_without_fields_or_group_is_a_unit_variant_in_no_group(tmp_path: Path) -> None:
    row = {"status": 422, "title": "Throwaway", "fix": "Nothing to do."}
    flat = _flat(rust.render_rust_kinds(table.load_table(_spec_with(tmp_path, "THROWAWAY_CODE", row))))

    assert "/// 422 `THROWAWAY_CODE`: Nothing to do. ThrowawayCode," in flat
    assert "ErrorCode::ThrowawayCode => ProblemKind::ThrowawayCode," in flat
    assert "ProblemKind::ThrowawayCode => ErrorCode::ThrowawayCode," in flat
    assert "ErrorCode::ThrowawayCode => ProblemGroup" not in flat


def test_fields_are_typed_by_the_problem_members() -> None:
    flat = _flat(KINDS.read_text("utf-8"))

    # An integer with a minimum of at least 0 is unsigned; a list of issues is a Vec, empty when absent.
    assert "SessionRevisionConflict { current_revision: i64 }" in flat
    assert "RunEventsExpired { first_event_id: u64 }" in flat
    assert "AttachmentUnsupported { attachment: Option<u64>," in flat
    assert "ValidationError { errors: Vec<ValidationIssue> }" in flat
    assert "errors: fields.errors.clone().unwrap_or_default()" in flat
    assert "host_id: fields.host_id.clone()?, owner_host_id: fields.owner_host_id.clone()?," in flat
    for general in ("code", "detail", "title", "problem_type", "instance", "retry_after_seconds"):
        assert f"pub(super) {general}:" in flat


def test_a_doc_comment_keeps_code_spans_whole_and_starts_no_markdown_block() -> None:
    # Wrapped at the width, "-" and then "1." would each start a line (a list item, an ordered one).
    text = "x " + "a" * 89 + " - 1. then `firstEventId - 1`, " + "long words " * 8 + "See [Scaling](cluster.md)."
    lines = rust._doc(text, indent="    ").splitlines()

    assert all(len(line) <= rust.DOC_WIDTH for line in lines), lines
    assert all(line.startswith("    /// ") for line in lines)
    assert not any(rust.RISKY_START.match(line.removeprefix("    /// ")) for line in lines), lines
    joined = " ".join(line.removeprefix("    /// ") for line in lines)
    assert "`firstEventId - 1`" in joined
    assert joined.endswith("See Scaling (`docs/cluster.md`).")
