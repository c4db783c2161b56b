"""No module of ``agentic_driver`` imports, directly or through others, a module that imports it back.

The graph is read from the source (``ast``), not from ``sys.modules``, so it counts every import:
module level, inside functions (the lazy ones) and under ``TYPE_CHECKING``. An import of a package
(``from ..sessions import SessionStore``) is an edge to its ``__init__``; an import of a submodule
(``from ..sessions import store``) is an edge to that module, and a name that is not a submodule
(``from . import __version__``) an edge to the package. The parents a submodule import runs
first are not counted: every module would otherwise sit in a cycle with its package's ``__init__``.
"""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import agentic_driver

PACKAGE_DIR = Path(agentic_driver.__file__).resolve().parent
ROOT = "agentic_driver"


def module_name(path: Path, package_dir: Path, root: str) -> str:
    parts = [root, *path.relative_to(package_dir).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_by(path: Path, name: str, known: set[str]) -> set[str]:
    """The ``agentic_driver`` modules the file at ``path`` (module ``name``) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    edges: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            edges.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            edges.update(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names)
    return {edge for edge in edges if edge in known and edge != name}


def import_graph(package_dir: Path = PACKAGE_DIR, root: str = ROOT) -> dict[str, set[str]]:
    paths = {module_name(path, package_dir, root): path for path in sorted(package_dir.rglob("*.py"))}
    known = set(paths)
    return {name: imported_by(path, name, known) for name, path in paths.items()}


def first_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as cycle:
        return list(cycle.args[1])
    return None


def test_the_graph_sees_the_package() -> None:
    graph = import_graph()

    assert len(graph) > 40
    assert "agentic_driver.sessions.records" in graph["agentic_driver.sessions.store"]
    assert "agentic_driver.errors" in graph["agentic_driver.turns.admission"]


def test_a_cycle_through_a_type_checking_import_is_found(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "left").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "left" / "__init__.py").write_text("from .a import A\n")
    (package / "left" / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..b import B\n"
    )
    (package / "b.py").write_text("def make():\n    from .left import a\n")

    cycle = first_cycle(import_graph(package, "pkg"))

    assert cycle is not None and set(cycle) == {"pkg.left.a", "pkg.b"}


def test_a_package_import_is_an_edge_to_its_init_only(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from .a import A\n")
    (package / "a.py").write_text("A = 1\n")
    (package / "b.py").write_text("import pkg\nfrom pkg import A\n")

    graph = import_graph(package, "pkg")

    assert graph == {"pkg": {"pkg.a"}, "pkg.a": set(), "pkg.b": {"pkg"}}
    assert first_cycle(graph) is None


def test_agentic_driver_has_no_import_cycle() -> None:
    cycle = first_cycle(import_graph())

    # graphlib lists each module before the one that imports it; reversed, the message reads "imports"
    assert cycle is None, "import cycle: " + " imports ".join(reversed(cycle or []))


def test_sessions_does_not_import_turns() -> None:
    """The turn path depends on the session store, never the other way round."""
    graph = import_graph()
    sessions = {name for name in graph if name == f"{ROOT}.sessions" or name.startswith(f"{ROOT}.sessions.")}

    imported = {edge for name in sessions for edge in graph[name]}

    assert sessions and not {edge for edge in imported if edge.startswith(f"{ROOT}.turns")}
