"""OpenTelemetry traces end to end: a real host exporting OTLP/HTTP to a loopback receiver (``fakes.otlp``).

The host is configured the way an operator would, with ``OTEL_EXPORTER_OTLP_ENDPOINT``; the client sends a
W3C ``traceparent``; the receiver decodes the protobuf export requests. A session turn with a function round
and a failed turn must give the span tree, GenAI attributes and statuses the docs promise, in the client's
trace, without a token or (unless opted in) any message text.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from agentic_driver_client.api.runs import run, submit_run_actions
from fakes import OpenAIChatFake
from fakes.otlp import OtlpReceiver, ReceivedSpan

from agentic_driver import telemetry

from .conftest import (
    ALICE,
    ALL_GRANTS,
    Host,
    echo_provider,
    function_results,
    function_tool,
    new_session,
    run_request,
    token_entry,
)
from .observed import KEY_ENV, UPSTREAM_KEY, chat_provider
from .observed import chat_fake as chat_fake  # a fixture: import it where it is used

SECRET_WORDS = "What is the weather in Paris"
ASK = '!call get_weather {"city": "Paris"}\n' + SECRET_WORDS


@pytest.fixture(scope="module")
def receiver() -> Iterator[OtlpReceiver]:
    with OtlpReceiver() as started:
        yield started


def traced_config(host_id: str, chat_fake: OpenAIChatFake) -> dict[str, Any]:
    return {
        "hostId": host_id,
        "providers": [
            echo_provider("echo"),
            chat_provider(chat_fake),
        ],
        "sessions": {"retentionMs": 60_000},
        "tokens": [token_entry("alice", ALICE, ["*"], ALL_GRANTS)],
    }


def otel_env(receiver: OtlpReceiver, **extra: str) -> dict[str, str]:
    return {
        "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint,
        "OTEL_BSP_SCHEDULE_DELAY": "50",  # export within 50 ms instead of 5 s
        "OTEL_SERVICE_NAME": "driver-under-test",
        KEY_ENV: UPSTREAM_KEY,
        **extra,
    }


@pytest.fixture(scope="module")
def traced_host(launch: Callable[..., Host], receiver: OtlpReceiver, chat_fake: OpenAIChatFake) -> Host:
    return launch("traced", traced_config("e2e-traced", chat_fake), env=otel_env(receiver), log_level="info")


def traceparent() -> tuple[str, str, str]:
    trace_id, parent_id = secrets.token_hex(16), secrets.token_hex(8)
    return f"00-{trace_id}-{parent_id}-01", trace_id, parent_id


def in_trace(receiver: OtlpReceiver, trace_id: str, count: int) -> list[ReceivedSpan]:
    spans = receiver.wait_for(lambda spans: sum(s.trace_id == trace_id for s in spans) >= count)
    return [s for s in spans if s.trace_id == trace_id]


def one(spans: list[ReceivedSpan], name: str, **attributes: Any) -> ReceivedSpan:
    found = [s for s in spans if s.name == name and all(s.attributes.get(k) == v for k, v in attributes.items())]
    assert len(found) == 1, (name, attributes, [(s.name, s.attributes) for s in spans])
    return found[0]


def test_a_session_turn_with_a_function_round(traced_host: Host, receiver: OtlpReceiver) -> None:
    header, trace_id, client_span = traceparent()
    with traced_host.client(ALICE) as alice:
        session = new_session(alice)
    with traced_host.client(ALICE).with_headers({"traceparent": header}) as traced:
        paused = run.sync_detailed(client=traced, body=run_request(ASK, session, tools=[function_tool("get_weather")]))
        assert paused.status_code == 200 and paused.parsed is not None
        call_id = paused.parsed.required_action.calls[0].call_id  # type: ignore[union-attr]
        done = submit_run_actions.sync_detailed(
            paused.parsed.id, client=traced, body=function_results((call_id, "21 degrees"))
        )
        assert done.status_code == 200
    run_id = paused.parsed.id
    spans = in_trace(receiver, trace_id, 5)
    first = one(spans, "POST /v1/runs")
    actions = one(spans, "POST /v1/runs/{runId}/actions")
    turn = one(spans, "invoke_agent agentic-driver")
    # the call that asked for the function first
    calls = sorted((s for s in spans if s.name == "chat echo-1"), key=lambda s: "stop" in str(s.attributes))
    assert len(spans) == 5 and len(calls) == 2

    # the tree: both requests are children of the client's span, the turn of the request that started it,
    # both model calls of the turn
    assert (first.kind, first.parent_span_id) == ("SPAN_KIND_SERVER", client_span)
    assert (actions.kind, actions.parent_span_id) == ("SPAN_KIND_SERVER", client_span)
    assert (turn.kind, turn.parent_span_id) == ("SPAN_KIND_INTERNAL", first.span_id)
    assert all((c.kind, c.parent_span_id) == ("SPAN_KIND_CLIENT", turn.span_id) for c in calls)

    assert first.attributes["http.route"] == "/v1/runs" and first.attributes["http.response.status_code"] == 200
    assert first.attributes["agentic_driver.operation"] == "run"
    assert first.attributes["agentic_driver.request_id"] == paused.headers["x-request-id"]
    assert actions.attributes["agentic_driver.run.id"] == run_id
    assert actions.attributes["agentic_driver.operation"] == "submitRunActions"
    assert (
        turn.attributes.items()
        >= {
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": "agentic-driver",
            "gen_ai.provider.name": "agentic_driver.echo",
            "gen_ai.request.model": "echo-1",
            "gen_ai.conversation.id": session.id,
            "agentic_driver.session.id": session.id,
            "agentic_driver.session.revision": 0,
            "agentic_driver.run.id": run_id,
            "agentic_driver.provider.id": "echo",
            "agentic_driver.run.outcome": "completed",
        }.items()
    )
    assert turn.attributes["gen_ai.usage.input_tokens"] > 0 and turn.attributes["gen_ai.usage.output_tokens"] > 0
    assert "gen_ai.system" not in turn.attributes
    assert turn.status_code == "STATUS_CODE_UNSET"
    for call, reasons in zip(calls, (["tool_calls"], ["stop"]), strict=True):
        assert call.attributes["gen_ai.operation.name"] == "chat"
        assert call.attributes["gen_ai.provider.name"] == "agentic_driver.echo"
        assert "gen_ai.system" not in call.attributes  # deprecated: only when the host JSON asks for it
        assert call.attributes["gen_ai.request.model"] == call.attributes["gen_ai.response.model"] == "echo-1"
        assert call.attributes["gen_ai.conversation.id"] == session.id
        assert call.attributes["gen_ai.response.finish_reasons"] == reasons
        assert isinstance(call.attributes["gen_ai.usage.input_tokens"], int)
        assert call.status_code == "STATUS_CODE_UNSET"
    output_tokens = sum(c.attributes["gen_ai.usage.output_tokens"] for c in calls)
    assert output_tokens == turn.attributes["gen_ai.usage.output_tokens"]
    assert first.resource["service.name"] == "driver-under-test"
    assert_no_secret_or_content(spans)


def test_a_failed_turn(traced_host: Host, receiver: OtlpReceiver) -> None:
    header, trace_id, client_span = traceparent()
    with traced_host.client(ALICE) as alice:
        session = new_session(alice)
    with traced_host.client(ALICE).with_headers({"traceparent": header}) as traced:
        failed = run.sync_detailed(client=traced, body=run_request("!fail overloaded\n" + SECRET_WORDS, session))
    assert failed.status_code == 503
    spans = in_trace(receiver, trace_id, 3)
    server = one(spans, "POST /v1/runs")
    turn = one(spans, "invoke_agent agentic-driver")
    call = one(spans, "chat echo-1")
    assert server.parent_span_id == client_span
    assert (server.status_code, server.attributes["error.type"]) == ("STATUS_CODE_ERROR", "PROVIDER_OVERLOADED")
    assert server.attributes["http.response.status_code"] == 503
    assert (turn.status_code, turn.attributes["error.type"]) == ("STATUS_CODE_ERROR", "PROVIDER_OVERLOADED")
    assert turn.attributes["agentic_driver.run.outcome"] == "failed"
    assert (call.status_code, call.attributes["error.type"]) == ("STATUS_CODE_ERROR", "PROVIDER_OVERLOADED")
    assert "gen_ai.response.finish_reasons" not in call.attributes
    assert_no_secret_or_content(spans)


def test_the_model_call_carries_the_trace_to_the_provider(
    traced_host: Host, receiver: OtlpReceiver, chat_fake: OpenAIChatFake
) -> None:
    header, trace_id, _ = traceparent()
    before = len(chat_fake.requests)
    with traced_host.client(ALICE).with_headers({"traceparent": header}) as traced:
        answered = run.sync_detailed(client=traced, body=run_request("hello", provider="chat", model="gpt-4o"))
    assert answered.status_code == 200, answered.content
    [recorded] = chat_fake.requests[before:]
    spans = in_trace(receiver, trace_id, 3)
    call = one(spans, "chat gpt-4o")
    assert call.attributes["gen_ai.provider.name"] == "openai"
    assert recorded.headers["traceparent"] == f"00-{trace_id}-{call.span_id}-01"
    assert recorded.headers["x-request-id"] == answered.headers["x-request-id"]
    assert_no_secret_or_content(spans)


def test_message_content_only_when_the_operator_opts_in(
    launch: Callable[..., Host], receiver: OtlpReceiver, chat_fake: OpenAIChatFake
) -> None:
    env = otel_env(receiver, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT="true")
    host = launch("traced-content", traced_config("e2e-traced-content", chat_fake), env=env)
    header, trace_id, _ = traceparent()
    with host.client(ALICE).with_headers({"traceparent": header}) as traced:
        response = run.sync_detailed(client=traced, body=run_request(SECRET_WORDS))
    assert response.status_code == 200
    call = one(in_trace(receiver, trace_id, 3), "chat echo-1")
    assert json.loads(call.attributes["gen_ai.input.messages"])[0]["parts"][0]["content"] == SECRET_WORDS
    assert SECRET_WORDS in json.loads(call.attributes["gen_ai.output.messages"])[0]["parts"][0]["content"]


def assert_no_secret_or_content(spans: list[ReceivedSpan]) -> None:
    text = json.dumps([[s.name, s.attributes, s.events, s.resource, s.status_message] for s in spans])
    for secret in (ALICE, UPSTREAM_KEY):
        assert secret not in text
    assert SECRET_WORDS not in text and "21 degrees" not in text
    assert telemetry.GEN_AI_INPUT_MESSAGES not in text and telemetry.GEN_AI_OUTPUT_MESSAGES not in text


def test_the_host_json_tracing_block_alone_turns_tracing_on(
    launch: Callable[..., Host], receiver: OtlpReceiver, chat_fake: OpenAIChatFake
) -> None:
    config = traced_config("e2e-traced-json", chat_fake) | {
        "tracing": {"endpoint": receiver.endpoint, "serviceName": "from-host-json"}
    }
    host = launch("traced-json", config, env={"OTEL_BSP_SCHEDULE_DELAY": "50", KEY_ENV: UPSTREAM_KEY})
    header, trace_id, _ = traceparent()
    with host.client(ALICE).with_headers({"traceparent": header}) as traced:
        response = run.sync_detailed(client=traced, body=run_request("hello"))
    assert response.status_code == 200
    spans = in_trace(receiver, trace_id, 3)
    assert {s.name for s in spans} == {"POST /v1/runs", "invoke_agent agentic-driver", "chat echo-1"}
    assert {s.resource["service.name"] for s in spans} == {"from-host-json"}


def test_the_deprecated_gen_ai_system_only_when_the_host_json_asks(
    launch: Callable[..., Host], receiver: OtlpReceiver, chat_fake: OpenAIChatFake
) -> None:
    config = traced_config("e2e-traced-system", chat_fake) | {
        "tracing": {"endpoint": "http://127.0.0.1:9/unused", "emitGenAiSystem": True}
    }
    host = launch("traced-system", config, env=otel_env(receiver))  # the OTEL_* endpoint wins over the block's
    header, trace_id, _ = traceparent()
    with host.client(ALICE).with_headers({"traceparent": header}) as traced:
        echoed = run.sync_detailed(client=traced, body=run_request("hello"))
        chatted = run.sync_detailed(client=traced, body=run_request("hello", provider="chat", model="gpt-4o"))
    assert echoed.status_code == 200 and chatted.status_code == 200, chatted.content
    spans = in_trace(receiver, trace_id, 6)
    for name, provider in (("chat echo-1", "agentic_driver.echo"), ("chat gpt-4o", "openai")):
        call = one(spans, name)
        assert call.attributes["gen_ai.provider.name"] == call.attributes["gen_ai.system"] == provider
    turns = [s for s in spans if s.name == "invoke_agent agentic-driver"]
    assert len(turns) == 2 and all("gen_ai.system" in s.attributes for s in turns)
