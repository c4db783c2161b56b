"""Helpers for the repository's test suites and benchmarks; the host itself never imports this package.

It lives in the host's distribution because every suite that starts a host already runs with the
host installed (the host is started as ``python -m agentic_driver``), so the suites import it without
any path set-up, while the SDK's and the conformance kit's wheels do not depend on it.
"""

from .hosts import LOOPBACK, HostProcess, HostStartError, free_port, serve_command, spawn, start, stop_process

__all__ = ["LOOPBACK", "HostProcess", "HostStartError", "free_port", "serve_command", "spawn", "start", "stop_process"]
