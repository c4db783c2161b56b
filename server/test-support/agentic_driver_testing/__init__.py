"""Helpers for the repository's test suites and benchmarks: start a host process, wait until it serves, stop it.

Its own distribution (``server/test-support``, installed into ``.venv`` by ``make setup``), not part of the
host's wheel: no user installs it, and nothing here imports the host.
"""

from .hosts import LOOPBACK, HostProcess, HostStartError, free_port, serve_command, spawn, start, stop_process

__all__ = ["LOOPBACK", "HostProcess", "HostStartError", "free_port", "serve_command", "spawn", "start", "stop_process"]
