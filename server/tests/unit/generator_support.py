"""The repository's generators (``generator/*.py``, scripts, not a package) for the tests that check them."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[3]


def load_generator(name: str) -> ModuleType:
    """``generator/<name>.py`` as a module, loaded once (registered under ``name``)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "generator" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def check_generated(name: str) -> subprocess.CompletedProcess[str]:
    """``python generator/<name>.py --check``, as ``make check-generated`` runs it."""
    command = [sys.executable, str(ROOT / "generator" / f"{name}.py"), "--check"]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def spec_with(
    tmp_path: Path, rows: dict[str, dict[str, object]], *, enum_only: tuple[str, ...] = (), describe: bool = False
) -> Path:
    """openapi.yaml with ``rows`` set in ErrorCode's x-error-table (a new code also in its enum) and ``enum_only``
    codes in the enum alone. With ``describe``, each member a row lists opens its ``Problem`` description with the
    row's code too, as the loader demands (``maximum`` travels with ``limit``)."""
    import yaml

    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text("utf-8"))
    schemas = spec["components"]["schemas"]
    codes = schemas["ErrorCode"]
    codes["x-error-table"].update(rows)
    codes["enum"] += [code for code in (*rows, *enum_only) if code not in codes["enum"]]
    for code, row in rows.items() if describe else ():
        for name in [*row.get("fields", []), *row.get("optional", [])]:  # type: ignore[misc]
            member = schemas["Problem"]["properties"][name]
            if name != "maximum" and f"`{code}`" not in member["description"]:
                member["description"] = f"`{code}`, {member['description']}"
    path = tmp_path / "openapi.yaml"
    path.write_text(yaml.safe_dump(spec), "utf-8")
    return path
