"""The attempts of one logical call, without I/O: ``clients/BEHAVIOUR.md``'s retries and routing, once.

The sync and async clients each send what ``Attempts.request`` builds and hand
the outcome (the answer, or the connection error) to ``Attempts.finish``, which
logs it and decides: the call is over (an answer, or the error it raises), the
same request goes at once to the owner a first ``421`` names, or it is sent again
after ``wait`` seconds. Only the sending and the sleeping differ between the two.

A resumed stream (``clients/BEHAVIOUR.md``, Resuming a stream) is one logical call
of several requests (the stream, then its rejoins): they share one ``Attempts``,
so one retry budget and one 421 hop; ``restart`` switches it to the next request,
``dropped`` decides about a stream that ended before its last event.
"""

from __future__ import annotations

from typing import Any

import httpx

from ._base import Options, backoff, log_attempt, misdirected_owner, retry_delay
from ._exceptions import AgenticDriverError, APIConnectionError, NotFoundError, error_from_response
from ._plans import Call
from ._tokens import invalid_token

__all__ = ["Attempts"]


class Attempts:
    """Where one call stands: which attempt, which host, whether a 421 was already followed."""

    def __init__(self, call: Call[Any], options: Options) -> None:
        self.call = call
        self.options = options
        self.attempt = 0
        """Attempts made before this one, the 421 hop not counted."""
        self.host = call.host
        self.followed = False
        self.wait: float | None = None
        """After ``finish`` returned None: seconds to wait before sending again (None: at once)."""
        self.sent_token: str | None = None
        """The token a provider gave for the attempt under way (None with a string token or none)."""
        self.refused: str | None = None
        """The provider's token the host just refused, handed to the provider for the next attempt."""
        self.reauthorized = False
        """Whether this request was already sent again with a token asked anew (once at most)."""

    def request(self, http: httpx.Client | httpx.AsyncClient) -> httpx.Request:
        return self.call.request(http, self.host)

    def finish(self, outcome: httpx.Response | AgenticDriverError) -> httpx.Response | None:
        """The answer that ends the call, or None to send again; raises the error that ends it.

        An error answer's body must have been read (``outcome.content``).
        """
        call = self.call
        failure: AgenticDriverError
        if isinstance(outcome, httpx.Response):
            if outcome.is_success:
                log_attempt(call.method, call.path, self.attempt, outcome, None)
                return outcome
            failure = error_from_response(outcome, outcome.content)
            if call.missing_means_done and self.attempt > 0 and isinstance(failure, NotFoundError):
                log_attempt(call.method, call.path, self.attempt, outcome, None)
                return outcome
        else:
            failure = outcome
        if self.sent_token is not None and not self.reauthorized and invalid_token(failure):
            # the host refused the provider's token itself: ask the provider again, send once more at once
            log_attempt(call.method, call.path, self.attempt, failure, 0.0)
            self.refused, self.reauthorized, self.wait = self.sent_token, True, None
            return None
        owner = misdirected_owner(failure, self.followed)
        if owner is not None:  # once, at once, and not one of the retries
            log_attempt(call.method, call.path, self.attempt, failure, 0.0)
            self.host, self.followed, self.wait = owner, True, None
            return None
        delay = retry_delay(failure, self.attempt, self.options, call.method)
        log_attempt(call.method, call.path, self.attempt, failure, delay)
        if delay is None:
            raise failure
        self.wait = delay
        self.attempt += 1
        return None

    def dropped(self, failure: APIConnectionError, fresh: bool) -> float:
        """A stream that ended before its last event, to be resumed: seconds to wait before its rejoin.

        The first rejoin after a drop is not a retry: it goes at once, and its own failures draw on the whole
        budget. A ``fresh`` drop (the body of a rejoin that delivered no new event) is a rejoin that failed:
        a retry, after its backoff; raises ``failure`` when the budget is spent.
        """
        call = self.call
        if not fresh:
            self.attempt = 0
            log_attempt(call.method, call.path, 0, failure, 0.0)
            return 0.0
        delay = None if self.attempt >= self.options.max_retries else backoff(self.attempt)
        log_attempt(call.method, call.path, self.attempt, failure, delay)
        if delay is None:
            raise failure
        self.attempt += 1
        return delay

    def progressed(self) -> None:
        """The stream delivered a new event: the retry budget is given back."""
        self.attempt = 0

    def restart(self, call: Call[Any]) -> None:
        """Go on with another request of the same logical call (a stream's rejoin), keeping the budget and,
        when a 421 was followed, the owner it named."""
        self.call = call
        self.reauthorized = False  # each request of the call may be sent once more with a token asked anew
        if not self.followed:
            self.host = call.host
