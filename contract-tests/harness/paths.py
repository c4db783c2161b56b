"""Where things are. Everything is resolved from this file, so the suite runs from any working directory."""

from __future__ import annotations

import os
from pathlib import Path

CONTRACT_DIR = Path(__file__).resolve().parents[1]
ROOT = CONTRACT_DIR.parent
SPEC_PATH = ROOT / "openapi.yaml"
SCENARIOS_DIR = CONTRACT_DIR / "scenarios"
SCHEMATHESIS_CONFIG = CONTRACT_DIR / "schemathesis.toml"
HOST_CONFIG = CONTRACT_DIR / "host.json"
NO_SESSIONS_HOST_CONFIG = CONTRACT_DIR / "host-no-sessions.json"
HOST_CONFIGS = {"main": HOST_CONFIG, "no-sessions": NO_SESSIONS_HOST_CONFIG}

# reports/ is gitignored; CONTRACT_REPORTS_DIR lets the mutation tests keep their runs apart.
REPORTS_DIR = Path(os.environ.get("CONTRACT_REPORTS_DIR", CONTRACT_DIR / "reports"))
METRICS_PATH = REPORTS_DIR / "contract-metrics.json"
LOGS_DIR = REPORTS_DIR / "logs"
