"""The one schemathesis hook of the independent run (make validate-spec): a fresh Idempotency-Key per request.

Generated requests mostly carry the spec's example key, so after the first one the host answers every other
body sent with that key IDEMPOTENCY_KEY_REUSED (422), as the contract says it must: positive_data_acceptance
would then judge a refusal the contract requires. Each request gets a key of its own instead (numbered in
request order, so runs repeat). Nothing else about requests, answers or the spec is touched.
"""

from __future__ import annotations

import itertools
import threading
from typing import Any

import schemathesis

_NUMBERS = itertools.count(1)
_LOCK = threading.Lock()


@schemathesis.hook
def before_call(context: schemathesis.HookContext, case: schemathesis.Case, kwargs: dict[str, Any]) -> None:
    if case.headers and "Idempotency-Key" in case.headers:
        with _LOCK:
            case.headers["Idempotency-Key"] = f"independent-{next(_NUMBERS)}"
