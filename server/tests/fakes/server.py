"""The in-process server every fake shares: uvicorn in a thread on a free 127.0.0.1 port."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import secrets
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Protocol

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

FailureKind = Literal["rate_limit", "quota", "overloaded", "auth", "invalid", "server", "leak"]
FAILURE_KINDS: tuple[FailureKind, ...] = ("rate_limit", "quota", "overloaded", "auth", "invalid", "server", "leak")
"""``leak``: a 500 whose message repeats the presented API key (to prove the host scrubs it everywhere)."""

STARTUP_TIMEOUT_S = 10.0


@dataclass
class Failure:
    kind: FailureKind
    where: Literal["http", "stream"] = "http"
    """``stream``: HTTP 200, some events, then the error inside the stream."""
    retry_after: int | None = None


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: Any
    query: dict[str, str] = field(default_factory=dict)
    verified: int = 0
    """Signed or encrypted items from earlier calls that this request replayed and the fake verified."""
    media: list[str] = field(default_factory=list)
    """The media types of the images and documents the request carried, each checked as the provider does."""
    outcome: str = "ok"
    connection: int | None = None
    """The client port the request came on: requests on one kept-alive connection share it."""


class Observer(Protocol):
    """Sees every request a fake receives and every body and stream event it answers (the authority checks)."""

    def __call__(self, fake: FakeUpstream, kind: Literal["request", "response", "event"], body: Any) -> None: ...


class Rejection(Exception):
    """The request is invalid the way the real service would say it."""

    def __init__(self, response: Response) -> None:
        self.response = response


class FakeUpstream:
    """Base of every fake: routes, recording, failure injection, signing."""

    name = "fake"
    observer: ClassVar[Observer | None] = None
    """Set by ``tests/conftest.py`` for each test: the authority checks validate what it saw."""

    def __init__(self, api_key: str | None = "test-key-0000") -> None:
        self.api_key = api_key
        self.requests: list[Recorded] = []
        self.failures: deque[Failure] = deque()
        self.chunk_delay_s = 0.0
        self._secret = secrets.token_bytes(32)
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.port = 0

    # -- lifecycle ---------------------------------------------------------------------

    def routes(self) -> list[Route]:
        raise NotImplementedError

    def start(self) -> FakeUpstream:
        app = Starlette(routes=self.routes())
        config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="off", ws="none")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name=f"{self.name}-upstream", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError(f"the {self.name} fake did not start")
            time.sleep(0.01)
        self.port = self._server.servers[0].sockets[0].getsockname()[1]
        return self

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeUpstream:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """What a host or SDK is configured with (``baseUrl``)."""
        return self.origin

    # -- test controls -----------------------------------------------------------------

    def fail_next(
        self,
        kind: FailureKind,
        *,
        where: Literal["http", "stream"] = "http",
        retry_after: int | None = None,
        times: int = 1,
    ) -> None:
        for _ in range(times):
            self.failures.append(Failure(kind, where, retry_after))

    def reset(self) -> None:
        self.requests.clear()
        self.failures.clear()

    # -- signing: how the fake's "model" makes state only it can verify ------------------

    def sign(self, text: str) -> str:
        mac = hmac.new(self._secret, text.encode("utf-8"), hashlib.sha256).digest()
        return base64.b64encode(mac).decode("ascii")

    def verify(self, text: str, signature: Any) -> bool:
        """Whether ``signature`` is this fake's for ``text`` (in either base64 alphabet: SDKs re-encode bytes)."""
        if not isinstance(signature, str):
            return False
        try:
            presented = base64.b64decode(signature.replace("-", "+").replace("_", "/"), validate=True)
        except ValueError:
            return False
        return hmac.compare_digest(base64.b64decode(self.sign(text)), presented)

    def seal(self, text: str) -> str:
        """Opaque 'encrypted' content carrying ``text`` and its MAC (OpenAI's ``encrypted_content``)."""
        blob = json.dumps({"t": text, "m": self.sign(text)}).encode("utf-8")
        return "gAAAAA" + base64.urlsafe_b64encode(blob).decode("ascii")

    def unseal(self, sealed: Any) -> str | None:
        if not isinstance(sealed, str) or not sealed.startswith("gAAAAA"):
            return None
        try:
            blob = json.loads(base64.urlsafe_b64decode(sealed[6:].encode("ascii")))
        except ValueError:
            return None
        text = blob.get("t") if isinstance(blob, dict) else None
        return text if isinstance(text, str) and self.verify(text, blob.get("m")) else None

    # -- helpers for subclasses ------------------------------------------------------------

    async def record(self, request: Request) -> Recorded:
        raw = await request.body()
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        recorded = Recorded(request.url.path, dict(request.headers), body, dict(request.query_params))
        recorded.connection = request.client.port if request.client is not None else None
        self.requests.append(recorded)
        self.observe("request", body)
        return recorded

    def observe(self, kind: Literal["request", "response", "event"], body: Any) -> None:
        if FakeUpstream.observer is not None:
            FakeUpstream.observer(self, kind, body)

    def next_failure(self) -> Failure | None:
        return self.failures.popleft() if self.failures else None

    def json(self, body: Any, status: int = 200, headers: dict[str, str] | None = None) -> JSONResponse:
        if status < 400:  # error bodies are checked by the failure-mapping tests, not against the authority
            self.observe("response", body)
        return JSONResponse(body, status_code=status, headers=headers)

    def sse(self, frames: Iterable[bytes]) -> StreamingResponse:
        delay = self.chunk_delay_s

        async def body() -> AsyncIterator[bytes]:
            for frame in frames:
                if delay:
                    await asyncio.sleep(delay)
                self.observe_frame(frame)
                yield frame

        return StreamingResponse(body(), media_type="text/event-stream", headers={"cache-control": "no-cache"})

    def observe_frame(self, frame: bytes) -> None:
        """Each ``data:`` payload of an SSE frame but ``[DONE]`` and in-stream errors, as JSON."""
        for line in frame.decode("utf-8").splitlines():
            if line.startswith("data:") and line[5:].strip() != "[DONE]":
                event = json.loads(line[5:])
                if not (isinstance(event, dict) and ("error" in event or event.get("type") == "error")):
                    self.observe("event", event)


MAGIC = {
    "image/png": (b"\x89PNG\r\n\x1a\n",),
    "image/jpeg": (b"\xff\xd8\xff",),
    "image/gif": (b"GIF87a", b"GIF89a"),
    "application/pdf": (b"%PDF-",),
}


def sniff(data: Any) -> str | None:
    """The media type base64 ``data`` really holds, by its first bytes (as providers check), or None."""
    if not isinstance(data, str):
        return None
    try:
        raw = base64.b64decode(data, validate=True)
    except ValueError:
        return None
    if raw[:4] == b"RIFF" and raw[8:12] == b"WEBP":
        return "image/webp"
    return next((kind for kind, heads in MAGIC.items() if raw.startswith(heads)), None)


IMAGES = ("image/png", "image/jpeg", "image/webp", "image/gif")


def media_problem(declared: Any, data: Any, accepted: tuple[str, ...]) -> str | None:
    """Why a provider would refuse this image or document (its declared type, or bytes of another type), or None."""
    if declared not in accepted:
        return f"unsupported MIME type {declared!r}; supported: {', '.join(accepted)}"
    actual = sniff(data)
    if actual != declared:
        return f"the data does not match the provided media type {declared} ({actual or 'not base64 of a known type'})"
    return None


def split_data_url(url: Any) -> tuple[str, str] | None:
    """``data:<media type>;base64,<data>`` -> (media type, data), or None."""
    if not isinstance(url, str) or not url.startswith("data:") or ";base64," not in url:
        return None
    head, _, data = url[5:].partition(";base64,")
    return head, data


def new_id(prefix: str, size: int = 24) -> str:
    return prefix + secrets.token_hex(size // 2)


def words(text: str, pieces: int = 3) -> list[str]:
    """``text`` in up to ``pieces`` parts that join back to it (the fake's streamed deltas)."""
    if not text:
        return []
    size = max(1, -(-len(text) // pieces))
    return [text[i : i + size] for i in range(0, len(text), size)]
