"""A child process spoken to one JSON line at a time over its stdin and stdout.

``make bench-upstream`` runs the fake provider and the direct (floor) client as
children of its own: each has its own core and its own CPU accounting, and
neither shares a GIL or an event loop with the load generator. The parent
writes one command line and reads one answer line; the child's first line says
it is ready (and what it listens on). A child ends when its stdin closes, so it
never outlives the harness that started it; its stderr goes to a log file.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from agentic_driver_testing import stop_process

__all__ = ["ChildFailed", "JsonChild", "serve_commands"]

Document = dict[str, Any]


class ChildFailed(RuntimeError):
    """The child exited, answered nothing in time, or answered something that is not a JSON object."""


class JsonChild:
    """The parent's side: start the child, wait for its ready line, ask it commands, stop it."""

    def __init__(
        self,
        name: str,
        argv: Sequence[str],
        *,
        log: Path,
        cpus: set[int] | None = None,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
        ready_timeout_s: float = 30.0,
    ) -> None:
        self.name = name
        self.log = log
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("ab") as stderr:
            self.process = subprocess.Popen(
                list(argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                env=env,
                cwd=cwd,
                bufsize=0,
                start_new_session=True,  # its own process group: stopping it ends only what we started
                preexec_fn=(lambda: os.sched_setaffinity(0, cpus)) if cpus else None,
            )
        self._buffer = b""
        try:
            self.ready = self._read(ready_timeout_s)
        except ChildFailed:
            self.stop()
            raise

    @property
    def pid(self) -> int:
        return self.process.pid

    def ask(self, command: Document, timeout_s: float) -> Document:
        """Send ``command`` and return the child's answer (a ``ChildFailed`` after ``timeout_s``)."""
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(json.dumps(command).encode() + b"\n")
        except OSError as error:
            raise ChildFailed(f"{self.name}: cannot send a command ({error}); log: {self.log}") from None
        return self._read(timeout_s)

    def _read(self, timeout_s: float) -> Document:
        """One line from the child's stdout, waiting at most ``timeout_s`` in all."""
        stdout = self.process.stdout
        assert stdout is not None
        deadline = time.monotonic() + timeout_s
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ChildFailed(f"{self.name}: no answer within {timeout_s:g} s; log: {self.log}")
            readable, _, _ = select.select([stdout], [], [], left)
            if not readable:
                continue
            chunk = os.read(stdout.fileno(), 1 << 16)
            if not chunk:
                raise ChildFailed(f"{self.name} exited ({self.process.poll()}); log: {self.log}")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            answer = json.loads(line)
        except ValueError:
            raise ChildFailed(f"{self.name}: answered {line[:200]!r}, not JSON; log: {self.log}") from None
        if not isinstance(answer, dict):
            raise ChildFailed(f"{self.name}: answered {line[:200]!r}, not a JSON object")
        if "error" in answer:
            raise ChildFailed(f"{self.name}: {answer['error']}; log: {self.log}")
        return answer

    def stop(self) -> None:
        """Close the child's stdin (its signal to end), then SIGTERM and SIGKILL its group if it lingers."""
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            stop_process(self.process, sig=signal.SIGTERM, group=True, timeout_s=5)
        if self.process.stdout is not None:
            self.process.stdout.close()


Handler = Callable[[Document], Awaitable[Document]]


async def serve_commands(ready: Document, handle: Handler) -> None:
    """The child's side: print ``ready``, then answer each command line with ``handle`` until stdin closes.

    A handler's exception is answered as ``{"error": ...}`` (the parent raises it), and the child goes on.
    """
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 20)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    _answer(ready)
    while line := await reader.readline():
        try:
            answer = await handle(json.loads(line))
        except Exception as error:  # reported to the parent, which stops the run with it
            answer = {"error": f"{type(error).__name__}: {error}"}
        _answer(answer)


def _answer(document: Document) -> None:
    sys.stdout.buffer.write(json.dumps(document).encode() + b"\n")
    sys.stdout.buffer.flush()
