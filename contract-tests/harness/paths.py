"""Where the repository's side of the contract tests keeps things (the kit's own data: agentic_driver_conformance)."""

from __future__ import annotations

import os
from pathlib import Path

CONTRACT_DIR = Path(__file__).resolve().parents[1]
ROOT = CONTRACT_DIR.parent
SPEC_PATH = ROOT / "openapi.yaml"
HOST_CONFIG = CONTRACT_DIR / "host.json"
NO_SESSIONS_HOST_CONFIG = CONTRACT_DIR / "host-no-sessions.json"
QUOTAS_HOST_CONFIG = CONTRACT_DIR / "host-quotas.json"
HOST_CONFIGS = {"main": HOST_CONFIG, "no-sessions": NO_SESSIONS_HOST_CONFIG, "quotas": QUOTAS_HOST_CONFIG}

# reports/ is gitignored; CONTRACT_REPORTS_DIR lets the mutation tests keep their runs apart.
REPORTS_DIR = Path(os.environ.get("CONTRACT_REPORTS_DIR", CONTRACT_DIR / "reports"))
METRICS_PATH = REPORTS_DIR / "contract-metrics.json"
LOGS_DIR = REPORTS_DIR / "logs"
KIT_DIR = REPORTS_DIR / "kit"
