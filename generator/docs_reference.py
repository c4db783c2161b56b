"""Render the references in docs/ that come from the code, or check that the committed copies match.

    python generator/docs_reference.py          # rewrite the generated regions (make docs-reference)
    python generator/docs_reference.py --check  # fail, naming each page, if a committed region differs

Two references are generated, each between a BEGIN and an END marker in its page, so that a duplicated,
missing or stale row cannot come back by hand:

- docs/errors.md, the error-code table: every code of the server's catalogue (``errors.CATALOGUE``, checked
  against ``openapi.yaml``'s ``ErrorCode`` enum) with its status and the fix-it text of ``error_guide.py``;
- docs/host-config.md, the host JSON field reference: every field of ``config.HostConfig``, nested, with its
  type, bounds, default and attribute docstring.

A new catalogue code gets its row from the catalogue; without a fix-it text the rendering stops and says where
the text goes. ``server/tests/unit/test_docs_reference.py`` runs the check inside ``make test``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server" / "src"))

from agentic_driver.config import HostConfig  # noqa: E402
from agentic_driver.error_guide import WHAT_TO_DO  # noqa: E402
from agentic_driver.errors import CATALOGUE  # noqa: E402

BEGIN = "<!-- BEGIN GENERATED {name}: python generator/docs_reference.py (make docs-reference); do not edit -->"
END = "<!-- END GENERATED {name} -->"


class InconsistentSource(Exception):
    """A source the references are rendered from is inconsistent; the message says what to fix."""


# -- the error-code table ---------------------------------------------------------------------------------------


def spec_error_codes() -> list[str]:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    return list(spec["components"]["schemas"]["ErrorCode"]["enum"])


def render_error_table() -> str:
    catalogue = [code.value for code in CATALOGUE]
    spec = spec_error_codes()
    if sorted(spec) != sorted(catalogue):
        raise InconsistentSource(
            "openapi.yaml's ErrorCode enum and errors.CATALOGUE differ: "
            f"only in the spec {sorted(set(spec) - set(catalogue))}, "
            f"only in the catalogue {sorted(set(catalogue) - set(spec))}"
        )
    missing = [code.value for code in CATALOGUE if code not in WHAT_TO_DO]
    if missing:
        raise InconsistentSource(f"no fix-it text for {missing}: add one to server/src/agentic_driver/error_guide.py")
    order = sorted(CATALOGUE, key=lambda code: (CATALOGUE[code].status, catalogue.index(code.value)))
    rows = ["| code | status | what to do |", "|---|---|---|"]
    rows += [f"| `{code.value}` | {CATALOGUE[code].status} | {_cell(WHAT_TO_DO[code])} |" for code in order]
    return "\n".join(rows)


# -- the host JSON field reference ------------------------------------------------------------------------------


def render_host_json() -> str:
    schema = HostConfig.model_json_schema()
    definitions: dict[str, Any] = schema.get("$defs", {})
    sections: list[str] = []
    seen: set[str] = set()
    for path, model, note in _models("(top level)", schema, definitions, ""):
        if model.get("title") in seen:
            continue
        seen.add(str(model.get("title")))
        sections.append(_section(path, model, note, definitions))
    return "\n\n".join(sections)


def _models(
    path: str, model: dict[str, Any], definitions: dict[str, Any], note: str
) -> Iterator[tuple[str, dict[str, Any], str]]:
    """Every object model reachable from ``model``, depth first, with its JSON path."""
    yield path, model, note
    for name, prop in model.get("properties", {}).items():
        child = name if path == "(top level)" else f"{path}.{name}"
        for suffix, target, child_note in _nested(prop, definitions):
            yield from _models(child + suffix, target, definitions, child_note)


def _nested(prop: dict[str, Any], definitions: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], str]]:
    """The object models a property holds: itself, its items, its map values, or each variant of a union."""
    if "$ref" in prop:
        yield "", _resolve(prop, definitions), ""
    for option in prop.get("anyOf", []):
        yield from _nested(option, definitions)
    if prop.get("type") == "array":
        items = prop.get("items", {})
        if "discriminator" in items:
            tag = items["discriminator"]["propertyName"]
            for variant in (_resolve(option, definitions) for option in items["oneOf"]):
                yield "[]", variant, f"with `{tag}: {json.dumps(variant['properties'][tag]['const'])}`"
        else:
            yield from (("[]" + suffix, target, note) for suffix, target, note in _nested(items, definitions))
    if isinstance(prop.get("additionalProperties"), dict):
        yield from (
            (".<key>" + suffix, target, note)
            for suffix, target, note in _nested(prop["additionalProperties"], definitions)
        )


def _resolve(prop: dict[str, Any], definitions: dict[str, Any]) -> dict[str, Any]:
    resolved: dict[str, Any] = definitions[prop["$ref"].rsplit("/", 1)[1]]
    return resolved


def _section(path: str, model: dict[str, Any], note: str, definitions: dict[str, Any]) -> str:
    heading = f"### `{path}`" + (f" {note}" if note else "")
    lines = [heading, ""]
    if model.get("description"):
        lines += [_prose(model["description"]), ""]
    required = set(model.get("required", []))
    lines += ["| field | type | default | meaning |", "|---|---|---|---|"]
    for name, prop in model.get("properties", {}).items():
        default = "required" if name in required else _default(prop)
        meaning = _cell(_prose(prop.get("description", "")))
        lines.append(f"| `{name}` | {_cell(_type(prop, definitions))} | {default} | {meaning} |")
    return "\n".join(lines)


def _type(prop: dict[str, Any], definitions: dict[str, Any]) -> str:
    if "$ref" in prop:
        return "object (below)"
    if "const" in prop:
        return f"`{json.dumps(prop['const'])}`"
    if "enum" in prop:
        return " or ".join(f"`{json.dumps(value)}`" for value in prop["enum"])
    options = [option for option in prop.get("anyOf", []) if option.get("type") != "null"]
    if options:
        return " or ".join(_type(option, definitions) for option in options)
    kind = prop.get("type", "any")
    if kind == "array":
        items = prop.get("items", {})
        if "discriminator" in items:
            text = "array of provider instances (below, one table per `kind`)"
        else:
            inner = _type(items, definitions)
            text = f"array of ({inner})" if ", " in inner else f"array of {inner}"
    elif kind == "object" and isinstance(prop.get("additionalProperties"), dict):
        text = f"map of {_type(prop['additionalProperties'], definitions)}"
    else:
        text = str(kind)
    return text + _bounds(prop)


def _bounds(prop: dict[str, Any]) -> str:
    bounds = [
        f"{label} {prop[key]}"
        for key, label in (
            ("minimum", "≥"),
            ("maximum", "≤"),
            ("minLength", "length ≥"),
            ("minItems", "items ≥"),
        )
        if key in prop
    ]
    if "pattern" in prop:
        bounds.append(f"matching `{prop['pattern']}`")
    return f", {', '.join(bounds)}" if bounds else ""


def _default(prop: dict[str, Any]) -> str:
    if "default" not in prop or prop["default"] is None:
        return "none"
    if "$ref" in prop:
        return "each field's (below)"
    text = json.dumps(prop["default"], separators=(", ", ": "))
    return f"`{text}`"


def _prose(docstring: str) -> str:
    """A docstring as one Markdown line: reST literals become code spans, line breaks spaces."""
    return re.sub(r"``(.+?)``", r"`\1`", " ".join(docstring.split()))


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


# -- the pages --------------------------------------------------------------------------------------------------

REFERENCES: dict[str, dict[str, Callable[[], str]]] = {
    "docs/errors.md": {"error-codes": render_error_table},
    "docs/host-config.md": {"host-json-fields": render_host_json},
}


def splice(text: str, name: str, body: str) -> str:
    """``text`` with the region between ``name``'s markers replaced by ``body``."""
    begin, end = BEGIN.format(name=name), END.format(name=name)
    if text.count(begin) != 1 or text.count(end) != 1:
        raise InconsistentSource(f"expected one {begin!r} and one {end!r}")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{begin}\n{body}\n{end}{tail}"


def rendered(page: str) -> str:
    """The page as it should be committed."""
    text = (ROOT / page).read_text(encoding="utf-8")
    for name, render in REFERENCES[page].items():
        text = splice(text, name, render())
    return text


def stale_pages() -> list[str]:
    return [page for page in REFERENCES if rendered(page) != (ROOT / page).read_text(encoding="utf-8")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="fail if a committed reference differs")
    options = parser.parse_args()
    try:
        if options.check:
            stale = stale_pages()
            for page in stale:
                print(f"{page}: generated reference differs; run make docs-reference", file=sys.stderr)
            return 1 if stale else 0
        for page in REFERENCES:
            (ROOT / page).write_text(rendered(page), encoding="utf-8")
            print("Rendered", page)
    except InconsistentSource as problem:
        print(f"docs_reference: {problem}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
