"""The classes a catalogue code's class derives from: one per HTTP status class, and the server's two groups that
cut across statuses. ``_code_errors`` (generated) puts each code's class under them; ``_exceptions`` draws the
whole tree."""

from __future__ import annotations

from ._error_base import APIStatusError

__all__ = [
    "AuthenticationError",
    "ConflictError",
    "InternalServerError",
    "NotFoundError",
    "ProviderFailedError",
    "RateLimitError",
    "RetryLaterError",
    "UnprocessableEntityError",
]


class AuthenticationError(APIStatusError):
    """401: the host did not accept the credentials."""


class NotFoundError(APIStatusError):
    """404: the thing named does not exist for this caller."""


class ConflictError(APIStatusError):
    """409: the request conflicts with the current state of a session, run or idempotency key."""


class UnprocessableEntityError(APIStatusError):
    """422: the request is well-formed JSON but cannot be carried out as sent."""


class ProviderFailedError(APIStatusError):
    """The model provider failed after model work started (the server's ``ProviderFailed`` group, the same in
    every client): ``PROVIDER_RATE_LIMITED`` (429), ``PROVIDER_ERROR``, ``PROVIDER_AUTH_FAILED``,
    ``PROVIDER_REJECTED`` (502), ``PROVIDER_OVERLOADED`` (503), ``PROVIDER_TIMEOUT`` (504). Never retried: the
    host already retried upstream. Each is also under the class of its status."""


class RetryLaterError(APIStatusError):
    """The host takes no new work now (the server's ``RetryLater`` group, the same in every client): 503
    ``SESSION_STORE_FULL``, ``HOST_BUSY``, ``SHUTTING_DOWN``, ``HOST_UNAVAILABLE``, each with ``Retry-After``;
    retried after it, then raised. Each is also an ``InternalServerError``."""


class RateLimitError(APIStatusError):
    """429: too many requests. Never retried (``clients/BEHAVIOUR.md``): not ``PROVIDER_RATE_LIMITED``, not
    ``SUBJECT_QUOTA_EXCEEDED``, not a proxy's 429."""


class InternalServerError(APIStatusError):
    """5xx: the host, its provider or a proxy failed. Retried: ``HOST_BUSY``, ``SESSION_STORE_FULL``,
    ``SHUTTING_DOWN``, ``HOST_UNAVAILABLE`` (after ``Retry-After``) and a 502/503/504 that is not a problem
    document (a proxy's page).
    """
