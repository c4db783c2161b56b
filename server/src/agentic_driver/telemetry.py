"""OpenTelemetry traces, opt-in: a server span per request, a turn span, a GenAI client span per model call.

Off unless configured: the standard ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` or ``OTEL_EXPORTER_OTLP_ENDPOINT``
environment variable, or the host JSON ``tracing`` block (``OTEL_SDK_DISABLED=true`` or
``OTEL_TRACES_EXPORTER=none`` keep it off). Off, ``tracer`` is None and every hook in the host is one
attribute test: the OpenTelemetry packages (the ``otel`` extra) are not even imported.

On, spans follow the GenAI semantic conventions of ``opentelemetry-semantic-conventions`` 0.66b2 (pinned
with the SDK in the ``otel`` extra; the GenAI names as that release carries them, semantic conventions 1.44.0,
where they are development-stability names kept in the separate ``semantic-conventions-genai`` repository;
``tests/unit/test_observability.py`` checks every name below against it)::

    POST /v1/runs                        SERVER  (the client's traceparent is its parent)
      invoke_agent agentic-driver        INTERNAL  one turn, from admission to its end
        chat <model>                     CLIENT  one model call; retries are its events

Attributes name the session (``gen_ai.conversation.id``), revision, run id and the error ``code``
(``error.type``); prompt and completion text only when ``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT``
(or ``tracing.captureMessageContent``) is true. Tokens and API keys are never attributes. The model call's
``traceparent`` travels to the provider with the upstream request (``outgoing_headers``). The provider is
``gen_ai.provider.name``; the deprecated ``gen_ai.system`` it replaced is set too only when asked for (host
JSON ``tracing.emitGenAiSystem``). The host's Prometheus histograms map to the GenAI metrics (``metrics.py``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from . import request_context

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.trace import Span, Tracer

__all__ = ["SEMCONV_VERSION", "configure", "outgoing_headers", "shutdown", "tracer"]

SEMCONV_VERSION = "0.66b2"
SERVICE_NAME = "agentic-driver"
AGENT_NAME = "agentic-driver"

tracer: Tracer | None = None
"""The host's tracer while tracing is on; None (the default) means every hook does nothing."""
capture_content = False
emit_gen_ai_system = False
"""Also set the deprecated ``gen_ai.system`` beside ``gen_ai.provider.name`` (host JSON ``tracing.emitGenAiSystem``)."""
_provider: TracerProvider | None = None

# Attribute names (GenAI, HTTP, error and URL semantic conventions), checked against the pinned semconv.
GEN_AI_OPERATION_NAME = "gen_ai.operation.name"
GEN_AI_PROVIDER_NAME = "gen_ai.provider.name"
GEN_AI_SYSTEM = "gen_ai.system"
GEN_AI_REQUEST_MODEL = "gen_ai.request.model"
GEN_AI_RESPONSE_MODEL = "gen_ai.response.model"
GEN_AI_USAGE_INPUT_TOKENS = "gen_ai.usage.input_tokens"
GEN_AI_USAGE_OUTPUT_TOKENS = "gen_ai.usage.output_tokens"
GEN_AI_RESPONSE_FINISH_REASONS = "gen_ai.response.finish_reasons"
GEN_AI_CONVERSATION_ID = "gen_ai.conversation.id"
GEN_AI_AGENT_NAME = "gen_ai.agent.name"
GEN_AI_INPUT_MESSAGES = "gen_ai.input.messages"
GEN_AI_OUTPUT_MESSAGES = "gen_ai.output.messages"
ERROR_TYPE = "error.type"
HTTP_REQUEST_METHOD = "http.request.method"
HTTP_RESPONSE_STATUS_CODE = "http.response.status_code"
HTTP_ROUTE = "http.route"
URL_PATH = "url.path"
# The host's own attributes.
REQUEST_ID = "agentic_driver.request_id"
OPERATION = "agentic_driver.operation"
SESSION_ID = "agentic_driver.session.id"
SESSION_REVISION = "agentic_driver.session.revision"
RUN_ID = "agentic_driver.run.id"
PROVIDER_ID = "agentic_driver.provider.id"

_TRUE = ("1", "true", "yes", "on")


def _env_true(env: Mapping[str, str], name: str) -> bool:
    return env.get(name, "").strip().lower() in _TRUE


def configure(
    endpoint: str | None = None,
    service_name: str | None = None,
    capture_message_content: bool = False,
    env: Mapping[str, str] = os.environ,
    *,
    gen_ai_system: bool = False,
) -> bool:
    """Turn tracing on when the environment or ``endpoint`` (host JSON) asks for it. Returns whether it is on.

    The environment's own ``OTEL_EXPORTER_OTLP_*`` settings win over the host JSON, as operators expect.
    ``gen_ai_system`` also sets the deprecated ``gen_ai.system`` on the GenAI spans.
    """
    global tracer, capture_content, emit_gen_ai_system, _provider
    if _env_true(env, "OTEL_SDK_DISABLED") or env.get("OTEL_TRACES_EXPORTER", "").strip().lower() == "none":
        return False
    from_env = env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") or env.get("OTEL_EXPORTER_OTLP_ENDPOINT")
    if not from_env and endpoint is None:
        return False
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
    except ImportError as missing:
        from .config import ConfigError

        raise ConfigError(
            [
                f"tracing is configured but OpenTelemetry is not installed ({missing.name}): "
                "pip install 'agentic-driver[otel]'"
            ]
        ) from None
    from ._version import __version__

    attributes: dict[str, str] = {"service.version": __version__}
    if service_name is not None and "OTEL_SERVICE_NAME" not in env:
        attributes["service.name"] = service_name
    elif "OTEL_SERVICE_NAME" not in env:
        attributes["service.name"] = SERVICE_NAME
    resource = Resource.create(attributes)  # also reads OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES
    # With only the host JSON endpoint, post to its /v1/traces (what OTEL_EXPORTER_OTLP_ENDPOINT means too).
    exporter = OTLPSpanExporter() if from_env else OTLPSpanExporter(endpoint=_traces_url(endpoint or ""))
    _provider = TracerProvider(resource=resource)
    _provider.add_span_processor(BatchSpanProcessor(exporter))
    tracer = _provider.get_tracer("agentic_driver", __version__)
    capture_content = capture_message_content or _env_true(env, "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT")
    emit_gen_ai_system = gen_ai_system
    return True


def _traces_url(endpoint: str) -> str:
    return endpoint if endpoint.rstrip("/").endswith("/v1/traces") else endpoint.rstrip("/") + "/v1/traces"


def shutdown() -> None:
    """Export what is still queued and stop (the host calls this as it exits)."""
    global tracer, _provider
    if _provider is not None:
        _provider.shutdown()
    tracer, _provider = None, None


# -- the hooks (call only while ``tracer`` is not None) -----------------------------------------------------


def start_server_span(method: str, path: str, headers: Sequence[tuple[bytes, bytes]]) -> tuple[Span, object]:
    """The request's server span, child of the client's ``traceparent`` when it sent one; made current."""
    from opentelemetry import context, trace
    from opentelemetry.trace import SpanKind
    from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

    assert tracer is not None
    carrier = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in headers}
    parent = TraceContextTextMapPropagator().extract(carrier)
    span = tracer.start_span(
        method, context=parent, kind=SpanKind.SERVER, attributes={HTTP_REQUEST_METHOD: method, URL_PATH: path}
    )
    return span, context.attach(trace.set_span_in_context(span, parent))


def end_server_span(span: Span, token: object, request: request_context.RequestContext, route: str | None) -> None:
    from opentelemetry import context
    from opentelemetry.trace import StatusCode

    if route is not None:
        span.update_name(f"{request.method} {route}")
        span.set_attribute(HTTP_ROUTE, route)
    span.set_attribute(REQUEST_ID, request.request_id)
    _set_if(span, OPERATION, request.operation)
    _set_if(span, SESSION_ID, request.session_id)
    _set_if(span, RUN_ID, request.run_id)
    if request.status is not None:
        span.set_attribute(HTTP_RESPONSE_STATUS_CODE, request.status)
    if request.code is not None:
        span.set_attribute(ERROR_TYPE, request.code)
    if request.status is not None and request.status >= 500:  # HTTP semconv: a 4xx is the client's error
        span.set_status(StatusCode.ERROR, request.code)
    span.end()
    context.detach(token)  # type: ignore[arg-type]


def _set_if(span: Span, name: str, value: Any) -> None:
    if value is not None:
        span.set_attribute(name, value)


def provider_name(provider: object) -> str:
    """``gen_ai.provider.name``: the adapter's own ``telemetry_name`` (the well-known value where the convention
    has one: ``providers.network.WireMapping.telemetry_name``), else one made of its class name."""
    name = getattr(provider, "telemetry_name", None)
    return name if isinstance(name, str) else "agentic_driver." + type(provider).__name__.lower()


def _gen_ai(operation: str, provider: object, model: str, run_id: str, session_id: str | None) -> dict[str, Any]:
    """What the turn and model call spans share: the GenAI operation, provider, model and conversation."""
    name = provider_name(provider)
    attributes: dict[str, Any] = {
        GEN_AI_OPERATION_NAME: operation,
        GEN_AI_PROVIDER_NAME: name,
        GEN_AI_REQUEST_MODEL: model,
        RUN_ID: run_id,
    }
    if emit_gen_ai_system:  # deprecated for gen_ai.provider.name; only for a backend that reads nothing else
        attributes[GEN_AI_SYSTEM] = name
    if session_id is not None:
        attributes[GEN_AI_CONVERSATION_ID] = session_id
    return attributes


def start_turn(
    run_id: str, provider: object, provider_id: str, model: str, session_id: str | None, revision: int | None
) -> tuple[Span, object]:
    """The turn's span (GenAI ``invoke_agent``), current in the run's own task until the turn ends."""
    from opentelemetry import context, trace

    assert tracer is not None
    attributes = _gen_ai("invoke_agent", provider, model, run_id, session_id)
    attributes |= {GEN_AI_AGENT_NAME: AGENT_NAME, PROVIDER_ID: provider_id}
    if session_id is not None:
        attributes[SESSION_ID] = session_id
    if revision is not None:
        attributes[SESSION_REVISION] = revision
    span = tracer.start_span(f"invoke_agent {AGENT_NAME}", attributes=attributes)
    return span, context.attach(trace.set_span_in_context(span))


def end_turn(span: Span, token: object, outcome: str, code: str | None, input_tokens: int, output_tokens: int) -> None:
    from opentelemetry import context
    from opentelemetry.trace import StatusCode

    span.set_attribute(GEN_AI_USAGE_INPUT_TOKENS, input_tokens)
    span.set_attribute(GEN_AI_USAGE_OUTPUT_TOKENS, output_tokens)
    span.set_attribute("agentic_driver.run.outcome", outcome)
    if code is not None:
        span.set_attribute(ERROR_TYPE, code)
        span.set_status(StatusCode.ERROR, code)
    span.end()
    context.detach(token)  # type: ignore[arg-type]


def start_model_call(
    provider: object, model: str, session_id: str | None, run_id: str, input_text: str | None
) -> tuple[Span, object]:
    """One model call (GenAI ``chat`` client span); its context is what the upstream request propagates."""
    from opentelemetry import context, trace
    from opentelemetry.trace import SpanKind

    assert tracer is not None
    attributes = _gen_ai("chat", provider, model, run_id, session_id)
    if capture_content and input_text is not None:
        attributes[GEN_AI_INPUT_MESSAGES] = json.dumps(
            [{"role": "user", "parts": [{"type": "text", "content": input_text}]}]
        )
    span = tracer.start_span(f"chat {model}", kind=SpanKind.CLIENT, attributes=attributes)
    return span, context.attach(trace.set_span_in_context(span))


def end_model_call(
    span: Span,
    token: object,
    *,
    response_model: str | None,
    input_tokens: int,
    output_tokens: int,
    tool_calls: int,
    text: str | None,
    code: str | None,
) -> None:
    from opentelemetry import context
    from opentelemetry.trace import StatusCode

    _set_if(span, GEN_AI_RESPONSE_MODEL, response_model)
    span.set_attribute(GEN_AI_USAGE_INPUT_TOKENS, input_tokens)
    span.set_attribute(GEN_AI_USAGE_OUTPUT_TOKENS, output_tokens)
    if code is None:
        # The adapters normalise finish reasons away; what the host knows is whether the model asked for tools.
        span.set_attribute(GEN_AI_RESPONSE_FINISH_REASONS, ["tool_calls"] if tool_calls else ["stop"])
        if capture_content and text is not None:
            span.set_attribute(
                GEN_AI_OUTPUT_MESSAGES,
                json.dumps([{"role": "assistant", "parts": [{"type": "text", "content": text}]}]),
            )
    else:
        span.set_attribute(ERROR_TYPE, code)
        span.set_status(StatusCode.ERROR, code)
    span.end()
    context.detach(token)  # type: ignore[arg-type]


def retry_event(attempt: int, wait_s: float, failure: str) -> None:
    """A retried model call: an event on the current (model call) span."""
    from opentelemetry import trace

    trace.get_current_span().add_event(
        "gen_ai.retry", {"retry.attempt": attempt, "retry.wait_s": wait_s, ERROR_TYPE: failure}
    )


def outgoing_headers() -> dict[str, str]:
    """Headers an upstream call carries on: the request id, and the trace context while tracing."""
    headers: dict[str, str] = {}
    request = request_context.current()
    if request is not None:
        headers[request_context.REQUEST_ID_HEADER] = request.request_id
    if tracer is not None:
        from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

        TraceContextTextMapPropagator().inject(headers)
    return headers
