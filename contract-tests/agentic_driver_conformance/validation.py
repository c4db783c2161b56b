"""Every response a scenario receives goes through schemathesis: ``case.validate_response`` with all checks.

The schema is loaded with the kit's schemathesis.toml (the same checks, the same per-operation
configuration as the schema-wide run) and the contract's own checks (``checks.py``) are registered.
Check outcomes are counted through schemathesis' ``after_validate`` hook and recorded as observations.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import schemathesis
from schemathesis.checks import CheckResult, not_a_server_error
from schemathesis.core import NOT_SET
from schemathesis.engine import Status

from . import checks, observations, spec  # checks registers the contract's checks
from .resources import SCHEMATHESIS_CONFIG
from .spec import operations

# (observations file in effect, check, outcome) -> count: a test that diverts its observations (the mutation
# tests do) keeps its check outcomes out of the real host's figures too.
_COUNTS: Counter[tuple[str, str, str]] = Counter()
_COUNTS_LOCK = threading.Lock()


@functools.cache
def schema() -> Any:
    # The config file names the base URL and token through the environment; validation never uses either (checks
    # that re-send a request go to the host that answered), but loading the config needs them defined.
    os.environ.setdefault("CONTRACT_BASE_URL", "http://127.0.0.1:9")
    os.environ.setdefault("CONTRACT_TOKEN_FULL", "unused")
    os.environ.pop("SCHEMATHESIS_HOOKS", None)
    config = schemathesis.Config.from_path(SCHEMATHESIS_CONFIG)
    raw = copy.deepcopy(spec.document())
    return schemathesis.openapi.from_dict(raw, config=config)


@schemathesis.hook
def after_validate(
    context: schemathesis.HookContext, case: checks.OperationCase, response: Any, results: list[CheckResult]
) -> None:
    target = str(observations.path())
    with _COUNTS_LOCK:
        for result in results:
            _COUNTS[(target, result.name, "passed" if result.status == Status.SUCCESS else "failed")] += 1


def flush_check_counts() -> None:
    """Record the check outcomes counted so far (called once per pytest session)."""
    with _COUNTS_LOCK:
        counts = dict(_COUNTS)
        _COUNTS.clear()
    for (target, name, outcome), count in sorted(counts.items()):
        observations.record("checks", target=Path(target), check=name, outcome=outcome, count=count)


def validate(
    operation_id: str, response: httpx.Response, *, path: dict[str, Any], body: Any, cut_short: bool = False
) -> None:
    """Run every configured schemathesis check on one response; raises schemathesis' FailureGroup on failure.

    ``not_a_server_error`` is left out only when the response is a 5xx that the operation documents
    (SESSIONS_DISABLED 501, PROVIDER_ERROR 502, SESSION_STORE_FULL 503): the scenario asked for exactly that
    answer, and the other checks still validate it against the documented response.
    """
    operation = schema().find_operation_by_id(operation_id)
    case = operation.Case(
        path_parameters=dict(path),
        body=body if body is not None else NOT_SET,
        headers={
            name: response.request.headers[name]
            for name in ("Authorization", "Idempotency-Key")
            if name in response.request.headers
        }
        or None,
        media_type=response.request.headers.get("Content-Type") if body is not None else None,
    )
    documented = operations()[operation_id].statuses
    excluded = [not_a_server_error] if response.status_code >= 500 and str(response.status_code) in documented else []
    url = response.request.url
    answer = schemathesis.Response.from_any(response)
    # A stream the runner closed on purpose holds only its first events: not judged as a whole stream.
    answer.stream_cut_short = cut_short
    case.validate_response(
        answer,
        excluded_checks=excluded,
        headers=dict(response.request.headers),
        # Checks that send probes (ignored_auth) must reach the host that answered.
        transport_kwargs={"base_url": f"{url.scheme}://{url.netloc.decode()}"},
    )


def problem_code(response: httpx.Response) -> str | None:
    try:
        body = json.loads(response.content or b"null")
    except ValueError:
        return None
    return body.get("code") if isinstance(body, dict) and isinstance(body.get("code"), str) else None
