"""Deliberately broken hosts: the reference host with one rule patched out, served like the real one.

    python -m harness.mutants MUTATION --config host.json --port P

``tests/test_mutations.py`` proves that the suite rejects each mutation; a suite
that passed against them would not be testing those rules. ``defect`` is not a
mutation of a rule: it makes one operation fail unexpectedly, so that the
``INTERNAL_ERROR`` envelope a host defect produces can be checked at all.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from agentic_driver.cli import serve
from agentic_driver.config import load_config
from agentic_driver.driver import Driver
from agentic_driver.errors import CATALOGUE, CodeSpec, ErrorCode, RunNotFound
from agentic_driver.turns.lifecycle import TurnLifecycle


def stale_revision_accepted() -> None:
    """A run on a stale revision is answered 200: admission no longer compares revisions."""
    admit = TurnLifecycle.admit

    def admit_any_revision(self: TurnLifecycle, store: Any, record: Any, revision: int, run: Any) -> None:
        admit(self, store, record, record.revision, run)

    TurnLifecycle.admit = admit_any_revision  # type: ignore[method-assign]


def busy_as_400() -> None:
    """SESSION_BUSY keeps its code and body but is sent with status 400."""
    CATALOGUE[ErrorCode.SESSION_BUSY] = CodeSpec(400, CATALOGUE[ErrorCode.SESSION_BUSY].title)


def run_not_found_as_session_not_found() -> None:
    """An unknown run is answered with SESSION_NOT_FOUND: the right status, a code the answer does not list."""
    RunNotFound.code = ErrorCode.SESSION_NOT_FOUND


def defect() -> None:
    """Discovery fails with an unexpected exception (a host defect)."""

    async def broken(self: Driver, principal: Any = None) -> Any:
        raise RuntimeError("injected defect (contract-tests)")

    Driver.discovery = broken  # type: ignore[assignment,method-assign]


MUTATIONS: dict[str, Callable[[], None]] = {
    "stale-revision-accepted": stale_revision_accepted,
    "busy-as-400": busy_as_400,
    "run-not-found-as-session-not-found": run_not_found_as_session_not_found,
    "defect": defect,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.mutants")
    parser.add_argument("mutation", choices=sorted(MUTATIONS))
    parser.add_argument("--config", required=True)
    parser.add_argument("--port", type=int, required=True)
    options = parser.parse_args(argv)
    MUTATIONS[options.mutation]()
    serve(load_config(options.config), "127.0.0.1", options.port, "warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
