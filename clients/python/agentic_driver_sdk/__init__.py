"""Hand-written additions to the generated ``agentic_driver_client`` (which is never edited).

- ``streaming``: ``streamRun`` and ``streamRunActions`` as typed events, sync and async.
"""

from .streaming import (
    Event,
    ProblemError,
    UnknownEvent,
    astream_run,
    astream_run_actions,
    stream_run,
    stream_run_actions,
)

__all__ = [
    "Event",
    "ProblemError",
    "UnknownEvent",
    "astream_run",
    "astream_run_actions",
    "stream_run",
    "stream_run_actions",
]
