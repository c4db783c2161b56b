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
