"""Driver errors -> RFC 9457 problem responses (``application/problem+json``)."""

from __future__ import annotations

import orjson
from starlette.responses import Response

from .. import request_context
from ..errors import DriverError, ErrorCode
from ..metrics import Metrics

__all__ = ["bearer_challenge", "problem_response"]

PROBLEM_JSON = "application/problem+json"
REALM = 'Bearer realm="agentic-driver"'


def bearer_challenge(invalid_token: str | None) -> str:
    """The ``WWW-Authenticate`` value of a 401 (RFC 6750 section 3): no error code when no bearer token was
    presented (section 3.1), else ``invalid_token`` with the reason class, a fixed ASCII phrase that never holds
    any part of the token."""
    if invalid_token is None:
        return REALM
    return f'{REALM}, error="invalid_token", error_description="{invalid_token}"'


def problem_response(error: DriverError, instance: str, metrics: Metrics | None = None) -> Response:
    headers: dict[str, str] = {}
    if error.retry_after_seconds is not None:
        headers["Retry-After"] = str(error.retry_after_seconds)
    if error.code is ErrorCode.SESSION_REVISION_CONFLICT:
        # Replaying the same request can never succeed; tell generic retrying clients so.
        headers["x-should-retry"] = "false"
    if error.code is ErrorCode.UNAUTHENTICATED:
        headers["WWW-Authenticate"] = bearer_challenge(getattr(error, "invalid_token", None))
    if metrics is not None:
        metrics.error_answered(error.code.value)
        if error.code is ErrorCode.UNAUTHENTICATED:
            metrics.auth_refused(getattr(error, "invalid_token", None))
    body = error.problem(instance)
    request = request_context.current()
    if request is not None:
        request.code = error.code.value
        body["requestId"] = request.request_id
    return Response(orjson.dumps(body), status_code=error.status, media_type=PROBLEM_JSON, headers=headers)
