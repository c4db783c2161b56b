"""Run the schemathesis CLI against a live host with the kit's schemathesis.toml and its hooks (st_hooks.py)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .resources import SCHEMATHESIS_CONFIG, SPEC_PATH

# Loaded by module name: the hooks import the kit's checks, so there is one set of them per process.
HOOKS_MODULE = "agentic_driver_conformance.st_hooks"
# Bounded: about 70 s on an idle two-core machine, several minutes when it is shared by many builds.
TIMEOUT_S = 600


@dataclass
class SchemathesisRun:
    returncode: int
    output: str
    observations: dict[str, Any]

    @property
    def failure_section(self) -> str:
        """The CLI's failure report, for a test failure message."""
        marker = self.output.find("FAILURES")
        start = self.output.rfind("\n", 0, marker) if marker != -1 else -1
        return self.output[start + 1 :] if marker != -1 else self.output[-6000:]


class Background:
    """A schemathesis CLI run in progress (it takes most of the suite's time, so it overlaps with the rest)."""

    def __init__(self, process: subprocess.Popen[str], observations_path: Path, output_path: Path | None) -> None:
        self.process = process
        self.observations_path = observations_path
        self.output_path = output_path
        self._result: SchemathesisRun | None = None

    def wait(self) -> SchemathesisRun:
        if self._result is None:
            try:
                output, _ = self.process.communicate(timeout=TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                output, _ = self.process.communicate()
                output += f"\n(killed after {TIMEOUT_S}s)"
            if self.output_path is not None:
                self.output_path.parent.mkdir(parents=True, exist_ok=True)
                self.output_path.write_text(output, encoding="utf-8")
            path = self.observations_path
            observations = json.loads(path.read_text()) if path.exists() else {}
            self._result = SchemathesisRun(self.process.returncode, output, observations)
        return self._result


def budget_config(divisor: int, directory: Path) -> Path:
    """The shipped configuration with every ``max-examples`` divided by ``divisor`` (``--budget``); 1: as shipped."""
    if divisor == 1:
        return SCHEMATHESIS_CONFIG
    text = re.sub(
        r"^((?:generation\.)?max-examples = )(\d+)$",
        lambda match: f"{match.group(1)}{max(1, int(match.group(2)) // divisor)}",
        SCHEMATHESIS_CONFIG.read_text(encoding="utf-8"),
        flags=re.MULTILINE,
    )
    path = directory / f"schemathesis-budget-1-{divisor}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def start_schemathesis(
    base_url: str,
    token: str,
    observations_path: Path,
    *,
    output_path: Path | None = None,
    extra_args: list[str] | None = None,
    config: Path = SCHEMATHESIS_CONFIG,
    host_id: str | None = None,
) -> Background:
    """Start the CLI run; ``token`` is the ``full`` token's secret (schemathesis.toml reads CONTRACT_TOKEN_FULL).

    ``host_id`` is the ``hostId`` discovery answered with: the spec's example ids are made to name it (st_hooks.py).
    """
    env = {
        **os.environ,
        "CONTRACT_TOKEN_FULL": token,
        "CONTRACT_BASE_URL": base_url,
        "CONTRACT_HOST_ID": host_id or "",
        "CONTRACT_ST_OBSERVATIONS": str(observations_path),
        "SCHEMATHESIS_HOOKS": HOOKS_MODULE,
        "NO_COLOR": "1",
        "COLUMNS": "120",
    }
    command = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "--config-file",
        str(config),
        "--no-color",
        "run",
        str(SPEC_PATH),
        *(extra_args or []),
    ]
    observations_path.unlink(missing_ok=True)
    observations_path.parent.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(
        command, cwd=observations_path.parent, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    return Background(process, observations_path, output_path)


def run_schemathesis(
    base_url: str,
    token: str,
    observations_path: Path,
    *,
    output_path: Path | None = None,
    extra_args: list[str] | None = None,
    config: Path = SCHEMATHESIS_CONFIG,
    host_id: str | None = None,
) -> SchemathesisRun:
    return start_schemathesis(
        base_url,
        token,
        observations_path,
        output_path=output_path,
        extra_args=extra_args,
        config=config,
        host_id=host_id,
    ).wait()
