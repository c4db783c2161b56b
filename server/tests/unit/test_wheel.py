"""The host's wheel holds the host: not the tests' helpers (``agentic_driver_testing``, its own distribution)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2]


def test_the_host_wheel_has_no_test_support(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(SERVER),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (wheel,) = tmp_path.glob("agentic_driver-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "agentic_driver/driver.py" in names and "agentic_driver/http/openapi.yaml" in names
    assert not [name for name in names if "testing" in name.split("/")[0:2]], [n for n in names if "testing" in n]
