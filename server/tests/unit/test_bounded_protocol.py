"""``bounded_protocol``: the module-level ``BoundedProtocol`` and the configured subclass the factory returns.

The bounds themselves are exercised over real connections in tests/reliability (test_connections.py,
test_malformed_requests.py); these only pin the factory and one method read on its own."""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from agentic_driver.config import LimitsConfig
from agentic_driver.http.server import LINGER_S, BoundedProtocol, bounded_protocol
from agentic_driver.metrics import Metrics


def test_the_factory_returns_a_subclass_carrying_the_configuration() -> None:
    limits = LimitsConfig(maxHeaderBytes=4096, requestHeadTimeoutMs=2500, maxConnections=3)
    metrics = Metrics()

    made = bounded_protocol(limits, metrics)

    assert issubclass(made, BoundedProtocol) and issubclass(made, HttpToolsProtocol)
    assert made.__name__ == "BoundedProtocol" and made.__module__ == "agentic_driver.http.server"
    configured: Any = made
    assert configured._limits is limits and configured._metrics is metrics
    assert configured._max_head_bytes == 4096 and configured._head_timeout_s == 2.5


def test_each_call_makes_its_own_class_and_leaves_the_module_class_unconfigured() -> None:
    first = bounded_protocol(LimitsConfig(maxHeaderBytes=2048), Metrics())
    second = bounded_protocol(LimitsConfig(maxHeaderBytes=8192), Metrics())

    assert first is not second
    assert (first._max_head_bytes, second._max_head_bytes) == (2048, 8192)  # type: ignore[attr-defined]
    assert not any(hasattr(BoundedProtocol, name) for name in ("_limits", "_metrics", "_max_head_bytes"))


class _Transport:
    def __init__(self) -> None:
        self.written = b""
        self.eof = False

    def write(self, data: bytes) -> None:
        self.written += data

    def can_write_eof(self) -> bool:
        return True

    def write_eof(self) -> None:
        self.eof = True

    def close(self) -> None:
        pass


class _Loop:
    def __init__(self) -> None:
        self.later: list[tuple[float, object]] = []

    def call_later(self, delay: float, callback: object) -> None:
        self.later.append((delay, callback))


def test_a_parsed_head_beyond_the_bound_is_refused_before_uvicorn_sees_it() -> None:
    metrics = Metrics()
    made = bounded_protocol(LimitsConfig(maxHeaderBytes=1024), metrics)
    protocol: Any = made.__new__(made)  # no uvicorn state: reaching uvicorn's on_headers_complete would fail
    protocol.transport, protocol.loop = _Transport(), _Loop()
    protocol.url = b"/" + b"x" * 100
    protocol._parsed_header_bytes = 1024 - 100

    protocol.on_headers_complete()

    assert protocol._refused and not protocol._awaiting_head
    assert protocol.transport.written.startswith(b"HTTP/1.1 431 ")
    assert b'"code":"HEADERS_TOO_LARGE"' in protocol.transport.written
    assert b"exceeds 1024 bytes" in protocol.transport.written
    assert protocol.transport.eof
    assert protocol.loop.later == [(LINGER_S, protocol.transport.close)]
    assert metrics.registry.get_sample_value("agentic_driver_errors_total", {"code": "HEADERS_TOO_LARGE"}) == 1
