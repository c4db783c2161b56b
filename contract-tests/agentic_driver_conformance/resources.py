"""Where the kit's data lives: inside the installed package, or in the repository checkout it is built from.

A built wheel carries its own copies under ``agentic_driver_conformance/data/`` (``pyproject.toml`` force-includes
them at build time): the contract ``openapi.yaml`` of the version the kit was built for, the scenarios and the
schemathesis configuration. In the checkout (``make contract``, an editable install) there is no ``data/``
directory and the same names resolve to the repository's files, so both run exactly the same files.

Reports go to ``CONTRACT_REPORTS_DIR`` (the CLI sets it to the directory of ``--report``).
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
_DATA = PACKAGE_DIR / "data"
INSTALLED = (_DATA / "openapi.yaml").is_file()

if INSTALLED:
    SPEC_PATH = _DATA / "openapi.yaml"
    SCENARIOS_DIR = _DATA / "scenarios"
    SCHEMATHESIS_CONFIG = _DATA / "schemathesis.toml"
else:
    _CONTRACT_DIR = PACKAGE_DIR.parent
    SPEC_PATH = _CONTRACT_DIR.parent / "openapi.yaml"
    SCENARIOS_DIR = _CONTRACT_DIR / "scenarios"
    SCHEMATHESIS_CONFIG = _CONTRACT_DIR / "schemathesis.toml"

PROFILES_DIR = PACKAGE_DIR / "profiles"
SUITE_DIR = PACKAGE_DIR / "suite"
HOOKS_PATH = PACKAGE_DIR / "st_hooks.py"


def reports_dir() -> Path:
    return Path(os.environ.get("CONTRACT_REPORTS_DIR", Path.cwd() / "conformance"))
