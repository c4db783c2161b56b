"""The Rust client's error kinds, rendered from openapi.yaml's ``x-error-table`` (``error_table.load_table``'s rows).

``error_table.py`` writes the result to clients/rust/src/error/kind.rs (its ``OUTPUTS``):

- ``ProblemKind``: one variant per code, documented with the row's status, code and fix-it text, carrying the
  row's ``fields`` as plain values and its ``optional`` ones as ``Option`` (a list of ``ValidationIssue`` as a
  ``Vec``, empty when absent), plus ``Unknown(String)`` for a code newer than the client;
- ``Fields``: the problem document read leniently, every code-specific member of the table;
- ``ProblemKind::from_code`` (``None`` when a guaranteed field is missing), ``ProblemKind::code`` and
  ``group_of``, the group of each code.

Integers are ``i64``, or ``u64`` when the ``Problem`` member's ``minimum`` is at least 0. What is written by hand
stays in the crate: ``ProblemGroup`` and ``ProblemKind::group`` (src/error/group.rs), and what the Rust client
itself does about a code (its retries, the ``421`` it follows, the busy helper: the docs of ``Error::kind``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rustfmt import rustfmt

if TYPE_CHECKING:  # error_table imports this module: no import of it at run time
    from error_table import Field, Row

RUST_KEYWORD_TEXT = (
    "as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move "
    "mut pub ref return self static struct super trait true type unsafe use where while abstract become box do "
    "final macro override priv try typeof unsized virtual yield gen"
)
RUST_KEYWORDS = frozenset(RUST_KEYWORD_TEXT.split())
"""Rust's keywords, strict and reserved: a member named like one is a raw identifier (``r#type``)."""
DOC_WIDTH = 100
"""A doc comment's lines end by this column (rustfmt leaves comments as written)."""
MARKDOWN_LINK = re.compile(r"\[([^\]]+)\]\((?!https?:)([^)]+)\)")
"""A link relative to ``docs/`` (the fix texts' links), which rustdoc could not follow."""
RISKY_START = re.compile(r"^([-+*>#]|\d+[.)])(\s|$)")
"""A doc line must not start like a Markdown list item, quote or heading."""


def render_rust_kinds(rows: list[Row]) -> str:
    members = _members(rows)
    variants = "".join(_variant(row) for row in rows)
    fields = "".join(f"    pub(super) {_ident(f)}: Option<{_type(f)}>,\n" for f in members)
    reads = "".join(f"            ErrorCode::{row.pascal} => {_construct(row)},\n" for row in rows)
    codes = "".join(
        f"            ProblemKind::{row.pascal}{' { .. }' if row.fields or row.optional else ''} => "
        f"ErrorCode::{row.pascal},\n"
        for row in rows
    )
    source = (
        "// Generated from openapi.yaml's ErrorCode x-error-table by generator/error_rust.py. DO NOT EDIT.\n\n"
        "//! The kinds of problem: one [`ProblemKind`] per catalogue code with the fields the contract gives it,\n"
        "//! read from the problem document ([`Fields`]), and the [`ProblemGroup`] each code is in. `group.rs`\n"
        "//! (written by hand) has the groups.\n\n"
        "use serde::Deserialize;\n\n"
        "use super::ProblemGroup;\n"
        "use crate::generated::types::{ErrorCode, ValidationIssue};\n\n"
        "/// One variant per code of the catalogue (openapi.yaml's `ErrorCode` and its `x-error-table`), documented\n"
        "/// with the code's fix-it text and carrying the fields the table gives the code: plain when every answer\n"
        "/// with it carries the field (a document without one is not the contract's and becomes\n"
        "/// [`crate::Error::UnexpectedStatus`]), an `Option` when only some do. What this client does about some\n"
        "/// codes before they reach you (retries, the `421` it follows, the busy helper) is on\n"
        "/// [`crate::Error::kind`].\n"
        "#[derive(Debug, Clone, PartialEq)]\n"
        "#[non_exhaustive]\n"
        "pub enum ProblemKind {\n"
        f"{variants}"
        "    /// A code this client does not know (a newer host).\n"
        "    Unknown(String),\n"
        "}\n\n"
        "/// The members of a problem document, read leniently (every code-specific one of the table).\n"
        "#[derive(Debug, Default, Deserialize)]\n"
        '#[serde(rename_all = "camelCase")]\n'
        "pub(super) struct Fields {\n"
        "    pub(super) code: Option<String>,\n"
        "    pub(super) detail: Option<String>,\n"
        "    #[serde(default)]\n"
        "    pub(super) title: String,\n"
        '    #[serde(default, rename = "type")]\n'
        "    pub(super) problem_type: String,\n"
        "    pub(super) instance: Option<String>,\n"
        "    pub(super) retry_after_seconds: Option<i64>,\n"
        f"{fields}"
        "}\n\n"
        "impl ProblemKind {\n"
        "    /// The kind of a catalogue code, taking the code's fields from the document; `None` when a field\n"
        "    /// the contract guarantees for the code is missing (the document is not the contract's).\n"
        "    pub(super) fn from_code(code: ErrorCode, fields: &Fields) -> Option<Self> {\n"
        "        Some(match code {\n"
        f"{reads}"
        "        })\n"
        "    }\n\n"
        "    /// The catalogue code of this kind (`None` for [`ProblemKind::Unknown`]).\n"
        "    pub fn code(&self) -> Option<ErrorCode> {\n"
        "        Some(match self {\n"
        f"{codes}"
        "            ProblemKind::Unknown(_) => return None,\n"
        "        })\n"
        "    }\n"
        "}\n\n"
        f"{_group_of(rows)}"
    )
    return rustfmt(source, "the Rust error kinds", SystemExit)


def _members(rows: list[Row]) -> list[Field]:
    """Every code-specific member of the table, once, in the order the rows first name it."""
    seen: dict[str, Field] = {}
    for row in rows:
        for field in (*row.fields, *row.optional):
            seen.setdefault(field.name, field)
    return list(seen.values())


def _ident(field: Field) -> str:
    return f"r#{field.snake}" if field.snake in RUST_KEYWORDS else field.snake


def _type(field: Field) -> str:
    if field.type == "issues":
        return "Vec<ValidationIssue>"
    if field.type == "string":
        return "String"
    return "u64" if field.minimum is not None and field.minimum >= 0 else "i64"


def _variant(row: Row) -> str:
    doc = _doc(f"{row.status} `{row.code}`: {row.fix}", indent="    ")
    if not row.fields and not row.optional:
        return f"{doc}    {row.pascal},\n"
    declared = [f"{_ident(f)}: {_type(f)}" for f in row.fields]
    declared += [f"{_ident(f)}: {_type(f) if f.type == 'issues' else f'Option<{_type(f)}>'}" for f in row.optional]
    return f"{doc}    {row.pascal} {{ {', '.join(declared)} }},\n"


def _construct(row: Row) -> str:
    if not row.fields and not row.optional:
        return f"ProblemKind::{row.pascal}"
    values = [f"{_ident(f)}: {_read(f)}?" for f in row.fields]
    values += [f"{_ident(f)}: {_read(f)}{'.unwrap_or_default()' if f.type == 'issues' else ''}" for f in row.optional]
    return f"ProblemKind::{row.pascal} {{ {', '.join(values)} }}"


def _read(field: Field) -> str:
    """The member's value out of ``fields`` (an ``Option``): integers are copied, text and lists cloned."""
    return f"fields.{_ident(field)}" + ("" if field.type == "integer" else ".clone()")


def _group_of(rows: list[Row]) -> str:
    arms = "".join(f"        ErrorCode::{row.pascal} => ProblemGroup::{row.group},\n" for row in rows if row.group)
    rest = "        _ => return None,\n" if any(row.group is None for row in rows) else ""
    return (
        "/// The group of a catalogue code (x-error-table's `group`), or `None` for a code in none.\n"
        "pub(super) fn group_of(code: ErrorCode) -> Option<ProblemGroup> {\n"
        f"    Some(match code {{\n{arms}{rest}    }})\n"
        "}\n"
    )


def _doc(markdown: str, indent: str) -> str:
    """``markdown`` as ``///`` lines ending by column ``DOC_WIDTH``: code spans kept whole and their backticks kept,
    relative links as their text and path, and no line that Markdown would read as a list item, a quote or a
    heading (a word carried down to start it, else its marker escaped)."""
    text = MARKDOWN_LINK.sub(lambda link: f"{link.group(1)} (`docs/{link.group(2)}`)", markdown)
    words = re.findall(r"(?:`[^`]*`|[^\s`])+", text)
    width = DOC_WIDTH - len(indent) - len("/// ")
    lines: list[list[str]] = [[]]
    for word in words:
        if not lines[-1] or len(" ".join([*lines[-1], word])) <= width:
            lines[-1].append(word)
            continue
        line = [word]
        while RISKY_START.match(line[0]) and len(lines[-1]) > 1:
            line.insert(0, lines[-1].pop())  # carry words down until the line starts with an ordinary one
        if RISKY_START.match(line[0]):
            line[0] = re.sub(r"^(\d*)(\D)", r"\1\\\2", line[0])  # no word to carry: escape it (CommonMark)
        lines.append(line)
    return "".join(f"{indent}/// {' '.join(line)}\n" for line in lines)
