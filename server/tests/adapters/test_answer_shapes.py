"""Honest failures: an answer the adapter cannot read is the provider's PROVIDER_ERROR naming what is
wrong, never an empty success; an exception of our own is an INTERNAL_ERROR with a logged traceback.

Every case goes through the adapter's real HTTP side (``Upstream`` with an httpx mock transport in place
of the network), streamed and not, as a model call would.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_driver import Driver, TokenPolicy
from agentic_driver.config import parse_config
from agentic_driver.errors import ErrorCode
from agentic_driver.http import create_app
from agentic_driver.providers import anthropic as anthropic_wire
from agentic_driver.providers import build_provider
from agentic_driver.providers import gemini as gemini_wire
from agentic_driver.providers import openai_chat as openai_chat_wire
from agentic_driver.providers import openai_responses as openai_responses_wire
from agentic_driver.providers.base import ModelRequest, ProviderFailure
from agentic_driver.providers.network import NetworkAdapter

TOKEN = "shape-test-token-0123456789"


def _sse(*events: Any) -> bytes:
    """A stream of ``data:`` events (text as it is, anything else as JSON)."""
    return b"".join(f"data: {e if isinstance(e, str) else json.dumps(e)}\n\n".encode() for e in events)


def _adapter(kind: str, stream: bool, answer: bytes) -> NetworkAdapter[Any, Any]:
    config = parse_config({"providers": [{"id": "p", "kind": kind, "models": ["m"], "stream": stream}]})
    provider = build_provider(config.providers[0], "providers[0]", env={})
    assert isinstance(provider, NetworkAdapter)
    media_type = "text/event-stream" if stream else "application/json"
    provider.upstream.transport = httpx.MockTransport(
        lambda request: httpx.Response(200, content=answer, headers={"content-type": media_type})
    )
    return provider


async def _failure(kind: str, stream: bool, answer: bytes) -> ProviderFailure:
    provider = _adapter(kind, stream, answer)
    try:
        with pytest.raises(ProviderFailure) as caught:
            async for _ in provider.turn(ModelRequest("m", "hi"), native=False):
                pass
    finally:
        await provider.aclose()
    return caught.value


OPENAI_CHAT_BODY = {"choices": [{"message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}]}
ANTHROPIC_START = {"type": "message_start", "message": {"usage": {"input_tokens": 3}}}

WRONG_SHAPES = [
    # (adapter, streamed, answer, what the failure must name)
    ("anthropic", False, b"{}", "content: Field required"),
    ("anthropic", False, json.dumps(OPENAI_CHAT_BODY).encode(), "content: Field required"),
    ("anthropic", False, b'{"content": [{"type": "text", "text": 5}]}', "text block (content[0])"),
    ("anthropic", False, b'{"content": [{"type": "tool_use", "name": "f", "input": {}}]}', "id: Field required"),
    ("anthropic", True, _sse({"type": "message_stop"}), "message_stop before message_start"),
    (
        "anthropic",
        True,
        _sse(ANTHROPIC_START, {"type": "content_block_delta", "index": 3, "delta": {"type": "text_delta"}}),
        "content block 3, which it never started",
    ),
    (
        "anthropic",
        True,
        _sse(
            ANTHROPIC_START,
            {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta"}},
        ),
        "text_delta has no text",
    ),
    ("anthropic", True, _sse(["not", "an", "event"]), "Input should be a valid dictionary"),
    ("openai-chat", False, b"{}", "choices: Field required"),
    ("openai-chat", False, b'{"choices": [{"message": {"content": 5}}]}', "choices.0.message.content"),
    ("openai-chat", True, _sse({}, "[DONE]"), "choices: Field required"),
    ("openai-chat", True, _sse("[DONE]"), "finished without a choice"),
    ("openai-chat", True, _sse({"choices": [{"delta": {"content": ["x"]}}]}, "[DONE]"), "delta.content"),
    ("openai-responses", False, b"{}", "output: Field required"),
    ("openai-responses", False, b'{"output": [{"type": "function_call", "name": "f"}]}', "call_id: Field required"),
    ("openai-responses", True, _sse({"type": "response.completed"}), "response: Field required"),
    ("openai-responses", True, _sse({"type": "response.output_text.delta", "delta": 7}), "delta"),
    ("gemini", False, b"{}", "has no candidate"),
    (
        "gemini",
        False,
        b'{"candidates": [{"content": {"parts": [{"functionCall": {"args": {}}}]}}]}',
        "functionCall.name: Field required",
    ),
    ("gemini", True, _sse({"candidates": "none"}), "candidates"),
    *((kind, True, _sse("not json"), "event of the stream is not JSON") for kind in ("anthropic", "gemini")),
    *((kind, False, b"not json", "not JSON") for kind in ("openai-chat", "openai-responses")),
]


@pytest.mark.parametrize(("kind", "stream", "answer", "named"), WRONG_SHAPES)
async def test_an_answer_of_the_wrong_shape_is_a_provider_error_naming_what_is_wrong(
    kind: str, stream: bool, answer: bytes, named: str
) -> None:
    failure = await _failure(kind, stream, answer)

    assert failure.error_class.code is ErrorCode.PROVIDER_ERROR
    assert named in str(failure)
    assert not failure.retryable  # the provider answered: a retry would run (and bill) the call again


MESSAGE = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "m",
    "content": [{"type": "text", "text": "hello", "citations": None}],
    "stop_reason": "end_turn",
    "usage": {"input_tokens": 3, "output_tokens": 1},
}


@pytest.fixture
async def host_with_a_planted_bug(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[tuple[httpx.AsyncClient, Driver]]:
    def planted(*args: Any) -> Any:
        raise RuntimeError("planted defect in the adapter's reading")

    monkeypatch.setattr(anthropic_wire, "_finish", planted)
    config = parse_config(
        {
            "providers": [{"id": "claude", "kind": "anthropic", "models": ["m"], "stream": False}],
            "tokens": [{"token": TOKEN, "subject": "app", "providers": ["claude"]}],
        }
    )
    async with Driver.from_config(config) as driver:
        provider = driver.providers["claude"]
        assert isinstance(provider, NetworkAdapter)
        provider.upstream.transport = httpx.MockTransport(lambda request: httpx.Response(200, json=MESSAGE))
        app = create_app(driver, TokenPolicy(config.tokens))
        transport = httpx.ASGITransport(app=app)
        headers = {"Authorization": f"Bearer {TOKEN}"}
        async with httpx.AsyncClient(transport=transport, base_url="http://host", headers=headers) as client:
            yield client, driver


async def test_an_exception_of_our_own_is_an_internal_error_with_the_request_id_and_a_logged_traceback(
    host_with_a_planted_bug: tuple[httpx.AsyncClient, Driver], caplog: pytest.LogCaptureFixture
) -> None:
    client, driver = host_with_a_planted_bug

    with caplog.at_level(logging.ERROR):
        response = await client.post("/v1/runs", json={"provider": "claude", "model": "m", "input": "hi"})

    assert response.status_code == 500
    problem = response.json()
    assert problem["code"] == "INTERNAL_ERROR"
    assert problem["requestId"] == response.headers["x-request-id"]
    assert "planted" not in json.dumps(problem)  # the defect's text stays in the log, not in the answer
    logged = [r for r in caplog.records if r.exc_info is not None]
    assert logged and "planted defect" in str(logged[0].exc_info[1])  # type: ignore[index]
    metrics = driver.metrics.render().decode()
    assert 'agentic_driver_errors_total{code="INTERNAL_ERROR"} 1.0' in metrics
    assert "agentic_driver_run_defects_total 1.0" in metrics
    assert 'code="PROVIDER_ERROR"' not in metrics  # counted apart from the provider's failures


async def test_a_streamed_run_that_meets_a_defect_of_ours_is_counted_as_one(
    host_with_a_planted_bug: tuple[httpx.AsyncClient, Driver], caplog: pytest.LogCaptureFixture
) -> None:
    client, driver = host_with_a_planted_bug

    with caplog.at_level(logging.ERROR):
        response = await client.post("/v1/runs/stream", json={"provider": "claude", "model": "m", "input": "hi"})

    assert response.status_code == 200  # the stream had started: the failure is its last event
    failed = [json.loads(line[5:]) for line in response.text.splitlines() if line.startswith("data:")][-1]
    assert (failed["type"], failed["problem"]["code"]) == ("run.failed", "INTERNAL_ERROR")
    assert driver.metrics.registry.get_sample_value("agentic_driver_run_defects_total") == 1.0
    assert any(r.exc_info is not None for r in caplog.records)


CLASSIFIERS = {
    "openai-responses": openai_responses_wire.classify,
    "anthropic": anthropic_wire.classify,
    "gemini": gemini_wire.classify,
    "openai-chat": openai_chat_wire.classify,
}
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=20,
)
"""Any decoded JSON, and error bodies' own member names with any value under them."""
ERROR_BODIES = JSON | st.fixed_dictionaries(
    {"error": st.fixed_dictionaries({}, optional={k: JSON for k in ("code", "status", "message", "type", "details")})}
)


@pytest.mark.parametrize("kind", CLASSIFIERS)
@settings(max_examples=150, deadline=None)
@given(status=st.integers(400, 599), payload=ERROR_BODIES)
def test_any_error_body_maps_to_a_provider_failure_of_its_status(kind: str, status: int, payload: Any) -> None:
    # No longer caught by a catch-all: a provider's odd error body must never become an INTERNAL_ERROR.
    failure = CLASSIFIERS[kind](status, {}, payload)

    assert isinstance(failure, ProviderFailure)


IN_STREAM_ERRORS = {
    "openai-responses": openai_responses_wire._event_failure,
    "anthropic": anthropic_wire._event_failure,
    "gemini": lambda error: gemini_wire._status_failure(error, {}),
    "openai-chat": openai_chat_wire._event_failure,
}


@pytest.mark.parametrize("kind", IN_STREAM_ERRORS)
@settings(max_examples=150, deadline=None)
@given(error=JSON | st.fixed_dictionaries({}, optional={k: JSON for k in ("code", "status", "message", "type")}))
def test_any_error_inside_a_200_stream_maps_to_a_provider_failure(kind: str, error: Any) -> None:
    assert isinstance(IN_STREAM_ERRORS[kind](error), ProviderFailure)
