"""Deliberately broken hosts: the reference host with one rule patched out, served like the real one.

    python -m harness.mutants MUTATION --config host.json --port P

``tests/test_mutations.py`` proves that the suite rejects each mutation, and
``kit-tests/test_kit.py`` that the installed kit does, naming the failing check;
a suite that passed against them would not be testing those rules. ``defect`` is not a
mutation of a rule: it makes one operation fail unexpectedly, so that the
``INTERNAL_ERROR`` envelope a host defect produces can be checked at all.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable
from typing import Any, cast

from agentic_driver.cli import serve
from agentic_driver.config import load_config
from agentic_driver.driver import Driver
from agentic_driver.errors import CATALOGUE, CodeSpec, DriverError, ErrorCode, RunNotFound, SessionBusy
from agentic_driver.turns.admission import RunAdmission


def stale_revision_accepted() -> None:
    """A run on a stale revision is answered 200: admission no longer compares revisions."""
    admit = RunAdmission.admit

    def admit_any_revision(self: RunAdmission, store: Any, record: Any, revision: int, *rest: Any) -> None:
        admit(self, store, record, record.revision, *rest)

    RunAdmission.admit = admit_any_revision  # type: ignore[assignment,method-assign]


def busy_as_400() -> None:
    """SESSION_BUSY keeps its code and body but is sent with status 400."""
    catalogue = cast(dict[ErrorCode, CodeSpec], CATALOGUE)  # the generated table, read-only to the host itself
    catalogue[ErrorCode.SESSION_BUSY] = dataclasses.replace(CATALOGUE[ErrorCode.SESSION_BUSY], status=400)


def busy_without_retry_after() -> None:
    """SESSION_BUSY keeps status, code and ``retryAfterSeconds`` in its body, but no ``Retry-After`` header is sent."""

    def without_header(
        self: SessionBusy, detail: str, *, active_run_id: str, retry_after_seconds: int | None = 1
    ) -> None:
        # The header comes from retry_after_seconds; a plain problem field keeps only the body member.
        DriverError.__init__(self, detail, activeRunId=active_run_id, retryAfterSeconds=retry_after_seconds)
        self.active_run_id = active_run_id

    SessionBusy.__init__ = without_header  # type: ignore[method-assign]


def weakened_served_spec() -> None:
    """The host serves a document whose ErrorCode enum lacks SESSION_BUSY (its behaviour is unchanged)."""
    import agentic_driver.http.app as app

    served = app.openapi_document

    def weakened() -> str:
        document = served()
        line = "        - SESSION_BUSY\n"  # an item of components.schemas.ErrorCode.enum
        assert line in document, "the mutation no longer finds SESSION_BUSY in the ErrorCode enum"
        return document.replace(line, "", 1)

    app.openapi_document = weakened


def run_not_found_as_session_not_found() -> None:
    """An unknown run is answered with SESSION_NOT_FOUND: the right status, a code the answer does not list."""
    RunNotFound.code = ErrorCode.SESSION_NOT_FOUND


def defect() -> None:
    """Discovery fails with an unexpected exception (a host defect)."""

    async def broken(self: Driver, principal: Any = None) -> Any:
        raise RuntimeError("injected defect (contract-tests)")

    Driver.discovery = broken  # type: ignore[method-assign]


def jwt_expiry_ignored() -> None:
    """JWTs are verified without their ``exp``: an expired token is accepted (the kit's auth profile fails)."""
    import jwt

    real = jwt.decode

    def decode(*args: Any, **kwargs: Any) -> Any:
        kwargs["options"] = {**kwargs.get("options", {}), "verify_exp": False}
        return real(*args, **kwargs)

    jwt.decode = decode


MUTATIONS: dict[str, Callable[[], None]] = {
    "stale-revision-accepted": stale_revision_accepted,
    "busy-as-400": busy_as_400,
    "busy-without-retry-after": busy_without_retry_after,
    "weakened-served-spec": weakened_served_spec,
    "run-not-found-as-session-not-found": run_not_found_as_session_not_found,
    "defect": defect,
    "jwt-expiry-ignored": jwt_expiry_ignored,
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
