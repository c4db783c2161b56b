"""The repository's own tests of the contract suite (run.py runs them beside the kit; they start their own hosts).

Observations go to ``reports/observations.jsonl`` (``CONTRACT_OBSERVATIONS``), which run.py merges with the kit's.
"""

from __future__ import annotations

import pytest

from agentic_driver_conformance import validation


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    validation.flush_check_counts()
