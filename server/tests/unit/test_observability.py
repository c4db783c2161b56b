"""Request ids, the log formats and their redaction, and the trace attribute names (no host process)."""

from __future__ import annotations

import importlib.metadata
import json
import logging
import sys

import pytest
from opentelemetry.semconv._incubating.attributes import error_attributes, gen_ai_attributes
from opentelemetry.semconv.attributes import http_attributes, url_attributes

from agentic_driver import EchoProvider, request_context, telemetry
from agentic_driver.logs import JsonFormatter, Redactor, TextFormatter

TOKEN = "alice-secret-token-000000001"
API_KEY = "sk-live-api-key-00000000001"


@pytest.mark.parametrize("value", ["a", "A-z_0.9:x", "x" * 128, "4bf92f3577b34da6a3ce929d0e0e4736"])
def test_well_formed_request_ids(value: str) -> None:
    assert request_context.well_formed_request_id(value)


@pytest.mark.parametrize("value", [None, "", "x" * 129, "a b", "a\r\nb", "a/b", "é", "a;b", "a=b", "a\tb"])
def test_malformed_request_ids(value: str | None) -> None:
    assert not request_context.well_formed_request_id(value)


def test_minted_ids_are_well_formed_and_distinct() -> None:
    minted = {request_context.mint_request_id() for _ in range(100)}
    assert len(minted) == 100 and all(request_context.well_formed_request_id(m) for m in minted)


def _record(message: str, *args: object, **extra: object) -> logging.LogRecord:
    record = logging.getLogger("agentic_driver.test").makeRecord(
        "agentic_driver.test", logging.WARNING, __file__, 1, message, args, None
    )
    record.__dict__.update(extra)
    return record


def test_json_lines_carry_the_current_request() -> None:
    context = request_context.RequestContext("req-1", "POST", "/v1/runs", operation="run", session_id="ses_1")
    token = request_context.enter(context)
    try:
        request_context.note_run("run_1")
        line = JsonFormatter(Redactor()).format(_record("hello %s", "world", status=200, code=None, duration_ms=1.5))
    finally:
        request_context.leave(token)
    entry = json.loads(line)
    assert entry.pop("timestamp").endswith("Z")
    assert entry == {
        "level": "WARNING",
        "logger": "agentic_driver.test",
        "message": "hello world",
        "request_id": "req-1",
        "operation": "run",
        "session_id": "ses_1",
        "run_id": "run_1",
        "status": 200,
        "duration_ms": 1.5,
    }


def test_text_lines_stay_readable_and_name_the_request() -> None:
    assert TextFormatter(Redactor()).format(_record("plain")) == "WARNING agentic_driver.test: plain"
    token = request_context.enter(request_context.RequestContext("req-2", operation="readSession"))
    try:
        line = TextFormatter(Redactor()).format(_record("read"))
    finally:
        request_context.leave(token)
    assert line == "WARNING agentic_driver.test: read request_id=req-2 operation=readSession"


@pytest.mark.parametrize("formatter", [TextFormatter, JsonFormatter])
def test_both_formats_redact_every_known_secret(formatter: type[TextFormatter] | type[JsonFormatter]) -> None:
    redact = Redactor([TOKEN, None, "short"])
    redact.add([API_KEY])
    try:
        raise RuntimeError(f"upstream said {API_KEY}")
    except RuntimeError:
        record = _record("token %s in a message", TOKEN)
        record.exc_info = sys.exc_info()
    line = formatter(redact).format(record)  # type: ignore[arg-type]
    assert TOKEN not in line and API_KEY not in line
    assert line.count("[redacted]") == 2
    assert "short" not in repr(redact) and TOKEN not in repr(redact)


def test_the_trace_attribute_names_are_the_pinned_semantic_conventions() -> None:
    assert importlib.metadata.version("opentelemetry-semantic-conventions") == telemetry.SEMCONV_VERSION
    pinned = {
        telemetry.GEN_AI_OPERATION_NAME: gen_ai_attributes.GEN_AI_OPERATION_NAME,
        telemetry.GEN_AI_PROVIDER_NAME: gen_ai_attributes.GEN_AI_PROVIDER_NAME,
        telemetry.GEN_AI_SYSTEM: gen_ai_attributes.GEN_AI_SYSTEM,
        telemetry.GEN_AI_REQUEST_MODEL: gen_ai_attributes.GEN_AI_REQUEST_MODEL,
        telemetry.GEN_AI_RESPONSE_MODEL: gen_ai_attributes.GEN_AI_RESPONSE_MODEL,
        telemetry.GEN_AI_USAGE_INPUT_TOKENS: gen_ai_attributes.GEN_AI_USAGE_INPUT_TOKENS,
        telemetry.GEN_AI_USAGE_OUTPUT_TOKENS: gen_ai_attributes.GEN_AI_USAGE_OUTPUT_TOKENS,
        telemetry.GEN_AI_RESPONSE_FINISH_REASONS: gen_ai_attributes.GEN_AI_RESPONSE_FINISH_REASONS,
        telemetry.GEN_AI_CONVERSATION_ID: gen_ai_attributes.GEN_AI_CONVERSATION_ID,
        telemetry.GEN_AI_AGENT_NAME: gen_ai_attributes.GEN_AI_AGENT_NAME,
        telemetry.GEN_AI_INPUT_MESSAGES: gen_ai_attributes.GEN_AI_INPUT_MESSAGES,
        telemetry.GEN_AI_OUTPUT_MESSAGES: gen_ai_attributes.GEN_AI_OUTPUT_MESSAGES,
        telemetry.ERROR_TYPE: error_attributes.ERROR_TYPE,
        telemetry.HTTP_REQUEST_METHOD: http_attributes.HTTP_REQUEST_METHOD,
        telemetry.HTTP_RESPONSE_STATUS_CODE: http_attributes.HTTP_RESPONSE_STATUS_CODE,
        telemetry.HTTP_ROUTE: http_attributes.HTTP_ROUTE,
        telemetry.URL_PATH: url_attributes.URL_PATH,
    }
    assert all(ours == theirs for ours, theirs in pinned.items()), pinned
    known = {v.value for v in gen_ai_attributes.GenAiProviderNameValues}
    assert {"openai", "anthropic", "gcp.gemini"} <= known


def test_tracing_stays_off_without_configuration() -> None:
    assert not telemetry.configure(env={})
    assert not telemetry.configure(endpoint="http://127.0.0.1:1", env={"OTEL_SDK_DISABLED": "true"})
    assert not telemetry.configure(env={"OTEL_EXPORTER_OTLP_ENDPOINT": "http://x", "OTEL_TRACES_EXPORTER": "none"})
    assert telemetry.tracer is None
    assert telemetry.outgoing_headers() == {}


def test_the_deprecated_gen_ai_system_is_set_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    echo = EchoProvider(id="echo", models=("echo-1",), account_id=None)
    shared = telemetry._gen_ai("chat", echo, "echo-1", "run_1", None)
    assert shared[telemetry.GEN_AI_PROVIDER_NAME] == "agentic_driver.echo"
    assert telemetry.GEN_AI_SYSTEM not in shared
    monkeypatch.setattr(telemetry, "emit_gen_ai_system", True)  # host JSON tracing.emitGenAiSystem
    assert telemetry._gen_ai("chat", echo, "echo-1", "run_1", None)[telemetry.GEN_AI_SYSTEM] == "agentic_driver.echo"
