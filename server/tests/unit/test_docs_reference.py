"""The README and docs/: generated references match a fresh rendering, and every relative link resolves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from generator_support import load_generator

from agentic_driver.errors import CATALOGUE, ErrorCode

ROOT = Path(__file__).resolve().parents[3]


docs_reference = load_generator("docs_reference")


@pytest.mark.parametrize("page", sorted(docs_reference.REFERENCES))
def test_the_committed_generated_reference_is_what_the_code_renders(page: str) -> None:
    committed = (ROOT / page).read_text("utf-8")

    assert docs_reference.rendered(page) == committed, f"{page} is stale: run make docs-reference"


def test_the_error_table_has_one_row_per_catalogue_code_with_its_status() -> None:
    rows = [line for line in docs_reference.render_error_table().splitlines() if line.startswith("| `")]

    assert [row.split("`")[1] for row in rows].count("SESSION_BUSY") == 1
    assert sorted(row.split("`")[1] for row in rows) == sorted(code.value for code in CATALOGUE)
    for row in rows:
        code = ErrorCode(row.split("`")[1])
        assert row.split(" | ")[1] == str(CATALOGUE[code].status)


def test_a_table_the_generator_cannot_use_stops_the_rendering_naming_the_row(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> None:
        raise docs_reference.error_table.TableError("x-error-table.HOST_BUSY: title and fix are required text")

    monkeypatch.setattr(docs_reference.error_table, "load_table", broken)

    with pytest.raises(docs_reference.InconsistentSource, match=r"openapi.yaml: x-error-table.HOST_BUSY"):
        docs_reference.render_error_table()


def test_splicing_replaces_only_the_region_between_its_markers() -> None:
    begin, end = docs_reference.BEGIN.format(name="x"), docs_reference.END.format(name="x")
    text = f"head\n{begin}\nstale row\nstale row\n{end}\ntail\n"

    assert docs_reference.splice(text, "x", "fresh") == f"head\n{begin}\nfresh\n{end}\ntail\n"
    with pytest.raises(docs_reference.InconsistentSource):
        docs_reference.splice("no markers", "x", "fresh")


# -- links ------------------------------------------------------------------------------------------------------

PAGES = [ROOT / "README.md", ROOT / "clients" / "BEHAVIOUR.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _prose(markdown: str) -> str:
    """The text outside fenced code blocks and code spans, where a ``[x](y)`` is a link."""
    unfenced = re.sub(r"(?ms)^```.*?^```", "", markdown)
    return re.sub(r"`[^`\n]*`", "", unfenced)


def _anchors(markdown: str) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered."""
    anchors: set[str] = set()
    for heading in re.findall(r"(?m)^#{1,6} (.+)$", re.sub(r"(?ms)^```.*?^```", "", markdown)):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        candidate, repeat = slug, 0
        while candidate in anchors:
            repeat += 1
            candidate = f"{slug}-{repeat}"
        anchors.add(candidate)
    return anchors


def _links() -> list[tuple[Path, str]]:
    return [
        (page, target)
        for page in PAGES
        for target in LINK.findall(_prose(page.read_text("utf-8")))
        if not re.match(r"^[a-z]+:", target)
    ]


def test_the_readme_and_docs_have_relative_links_to_check() -> None:
    pages = {page for page, _ in _links()}

    assert ROOT / "README.md" in pages and ROOT / "docs" / "errors.md" in pages


@pytest.mark.parametrize(("page", "target"), _links(), ids=lambda value: str(value).rsplit("/", 1)[-1])
def test_every_relative_link_of_the_readme_and_docs_resolves(page: Path, target: str) -> None:
    path, _, anchor = target.partition("#")
    destination = (page.parent / path).resolve() if path else page

    assert destination.exists(), f"{page.relative_to(ROOT)}: {target} names no file"
    if anchor:
        assert destination.suffix == ".md", f"{page.relative_to(ROOT)}: {target}: an anchor into a non-page"
        assert anchor in _anchors(destination.read_text("utf-8")), f"{page.relative_to(ROOT)}: no heading #{anchor}"


# -- commands ---------------------------------------------------------------------------------------------------


def test_every_make_target_the_readme_and_docs_name_exists() -> None:
    targets = set(re.findall(r"(?m)^([a-z][\w-]*):", (ROOT / "Makefile").read_text("utf-8")))
    named = {
        (page.relative_to(ROOT).as_posix(), target)
        for page in PAGES
        for target in re.findall(r"\bmake\s+([a-z][\w-]*)", page.read_text("utf-8"))
    }

    assert ("README.md", "serve") in named and ("README.md", "test") in named
    assert sorted((page, target) for page, target in named if target not in targets) == []
