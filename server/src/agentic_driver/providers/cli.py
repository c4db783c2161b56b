"""Command-line adapter: runs a configured command, prompt on stdin, reply on stdout. History only.

For local model CLIs (``llm``, ``ollama run``, a wrapper script). The command
runs without a shell, once per turn; ``{model}`` in an argument becomes the
run's model. The prompt is the input alone when there is no earlier context,
otherwise a plain transcript::

    <instructions>

    User: <earlier user message>
    Assistant: <earlier reply>
    User: <input>

The reply is stdout (decoded as UTF-8, trailing newlines dropped), passed on as
it arrives when ``stream`` is on. A non-zero exit status fails the turn with
the end of stderr. A CLI reports no usage and takes no functions, and keeps no
state the host could replay, so it does history continuation only.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import shutil
from collections.abc import AsyncGenerator, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..config import CliProviderConfig, ConfigError
from .base import Capabilities, ModelRequest, ProviderFailure, TextDelta, TurnEvent, Usage, UsageReport, VisibleMessage
from .wire import user_text

__all__ = ["CliProvider", "prompt_text"]

READ_CHUNK = 4096
STDERR_TAIL = 400


@dataclass(slots=True)
class CliProvider:
    id: str
    models: tuple[str, ...]
    account_id: str | None
    command: tuple[str, ...]
    stream: bool = True
    timeout_s: float = 600.0
    kind: str = "cli"
    telemetry_name: ClassVar[str] = "agentic_driver.cli"
    """``gen_ai.provider.name`` on traces."""

    @classmethod
    def from_config(
        cls,
        config: CliProviderConfig,
        where: str = "provider",
        env: Mapping[str, str] = os.environ,
        *,
        max_connections: int = 64,
    ) -> CliProvider:
        """The instance for one configured command (``providers.ADAPTERS`` builds every kind with the same
        arguments; a command needs no environment and holds no connections)."""
        if shutil.which(config.command[0]) is None:
            raise ConfigError([f"{where}.command: {config.command[0]!r} is not an executable program"])
        return cls(
            id=config.id,
            models=tuple(config.models),
            account_id=config.accountId,
            command=tuple(config.command),
            stream=config.stream,
            timeout_s=config.timeoutMs / 1000,
        )

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(
            history_continuation=True, native_continuation=False, streaming=True, application_functions=False
        )

    async def turn(self, request: ModelRequest, *, native: bool) -> AsyncGenerator[TurnEvent, None]:
        argv = [part.replace("{model}", request.model) for part in self.command]
        try:
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
        except OSError as error:
            raise ProviderFailure(f"cannot run {argv[0]!r}: {error.strerror or error}") from None
        try:
            async with asyncio.timeout(self.timeout_s):
                async for text in self._reply(process, prompt_text(request)):
                    yield TextDelta(text)
        except TimeoutError:
            raise ProviderFailure(f"the command ran longer than {self.timeout_s:g} s") from None
        finally:
            if process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()
        yield UsageReport(Usage())

    async def _reply(self, process: asyncio.subprocess.Process, prompt: str) -> AsyncGenerator[str, None]:
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        errors = asyncio.ensure_future(process.stderr.read())
        try:
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # a command may ignore its stdin
                process.stdin.write(prompt.encode("utf-8"))
                await process.stdin.drain()
                process.stdin.close()
            decoder = codecs.getincrementaldecoder("utf-8")("replace")
            held = ""  # trailing newlines wait: the reply's own final newline is not part of it
            collected: list[str] = []
            while chunk := await process.stdout.read(READ_CHUNK):
                text = held + decoder.decode(chunk)
                body = text.rstrip("\r\n")
                held = text[len(body) :]
                if body and self.stream:
                    yield body
                elif body:
                    collected.append(body)
            tail = (held + decoder.decode(b"", final=True)).rstrip("\r\n")
            status = await process.wait()
            stderr = (await errors).decode("utf-8", "replace").strip()
        finally:
            errors.cancel()
        if status != 0:
            raise ProviderFailure(f"the command exited with status {status}: {stderr[-STDERR_TAIL:] or '(no stderr)'}")
        reply = "".join([*collected, tail])
        if reply and not self.stream:
            yield reply
        elif tail:
            yield tail


def prompt_text(request: ModelRequest) -> str:
    """What the command reads on stdin."""
    text = user_text(request)
    if not request.instructions and not request.messages:
        return text
    lines: list[str] = [request.instructions, ""] if request.instructions else []
    lines += _transcript(request.messages)
    lines.append(f"User: {text}")
    return "\n".join(lines) + "\n"


def _transcript(messages: Sequence[VisibleMessage]) -> list[str]:
    return [f"{'User' if m.role == 'user' else 'Assistant'}: {m.content}" for m in messages]
