"""The API reference builds from the docstrings without a single warning (what ``make docs`` runs)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_the_api_reference_builds_without_warnings(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pdoc", "--docformat", "markdown", "-o", str(tmp_path), "agentic_driver_sdk"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "", done.stderr  # pdoc reports every problem as a warning on stderr
    page = (tmp_path / "agentic_driver_sdk.html").read_text(encoding="utf-8")
    for name in ("AgenticDriver", "AsyncAgenticDriver", "SessionBusyError", "Reconciliation", "with_options"):
        assert name in page
