"""Every provider adapter end to end: a live host process against its fake upstream.

For each adapter, in each mode it supports, with the upstream streamed and not,
and the host run streamed and not: create a session, a first turn with a
function call round trip, a second turn that can only be answered from the
first, and a read that shows only visible text. Native replay is verified by
the fake (it checks every signed or encrypted item it gets back). Then the
error mapping table row by row, retries, and a secret that never leaks.

The fakes run in this test process (a thread each); the host is a separate
process that reaches them over loopback.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from agentic_driver_client.api.discovery import get_discovery
from agentic_driver_client.api.runs import run
from agentic_driver_client.api.sessions import create_session
from agentic_driver_client.models import (
    OutputDeltaEvent,
    RunCompletedEvent,
    RunFailedEvent,
    RunRequiresActionEvent,
    RunResult,
)
from fakes import AnthropicFake, FakeUpstream, GeminiFake, OpenAIChatFake, OpenAIResponsesFake

from .conftest import (
    ALICE,
    ALL_GRANTS,
    Host,
    assert_problem,
    create_request,
    function_results,
    function_tool,
    new_session,
    read_ok,
    run_ok,
    run_request,
    submit_ok,
    token_entry,
)
from .sse import stream_run, stream_run_actions

UPSTREAM_KEY = "sk-e2e-upstream-secret-7f3a9c2e"
KEY_ENV = "AGENTIC_DRIVER_E2E_UPSTREAM_KEY"
CLI_MODEL = Path(__file__).resolve().parents[1] / "fakes" / "cli_model.py"
RETRIES = {"maxRetries": 2, "retryBaseMs": 5, "maxRetryWaitMs": 2000}
CALL = 'call get_weather {"city": "Paris"}'


@dataclass(frozen=True)
class Adapter:
    name: str
    kind: str
    model: str
    native: bool
    functions: bool


ADAPTERS = [
    Adapter("openai", "openai-responses", "gpt-5", native=True, functions=True),
    Adapter("claude", "anthropic", "claude-sonnet-5", native=True, functions=True),
    Adapter("gemini", "gemini", "gemini-2.5-flash", native=True, functions=True),
    Adapter("chat", "openai-chat", "gpt-4o", native=False, functions=True),
    Adapter("cli", "cli", "cli-1", native=False, functions=False),
]
BY_NAME = {a.name: a for a in ADAPTERS}


@pytest.fixture(scope="module")
def fakes() -> Iterator[dict[str, FakeUpstream]]:
    started: dict[str, FakeUpstream] = {
        "openai": OpenAIResponsesFake(api_key=UPSTREAM_KEY).start(),
        "claude": AnthropicFake(api_key=UPSTREAM_KEY).start(),
        "gemini": GeminiFake(api_key=UPSTREAM_KEY).start(),
        "chat": OpenAIChatFake(api_key=UPSTREAM_KEY).start(),
    }
    yield started
    for fake in started.values():
        fake.stop()


def provider_entries(fakes: dict[str, FakeUpstream], suffix: str, stream: bool) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    for adapter in ADAPTERS:
        entry: dict[str, Any] = {
            "id": adapter.name + suffix,
            "kind": adapter.kind,
            "accountId": "acct-e2e",
            "models": [adapter.model],
            "stream": stream,
        }
        if adapter.kind == "cli":
            entry["command"] = [sys.executable, str(CLI_MODEL)]
        else:
            entry.update(baseUrl=fakes[adapter.name].base_url, apiKeyEnv=KEY_ENV, temperature=0, **RETRIES)
        if adapter.kind == "anthropic":
            entry["extraBody"] = {"thinking": {"type": "enabled", "budget_tokens": 1024}}
        entries.append(entry)
    return entries


@pytest.fixture(scope="module")
def providers_host(launch: Callable[..., Host], fakes: dict[str, FakeUpstream]) -> Host:
    """Every adapter twice: streamed upstream calls (``<name>``) and non-streamed (``<name>-nostream``).

    Logs at debug level, so the secret test sees every line the host writes.
    """
    config = {
        "hostId": "e2e-providers",
        "providers": provider_entries(fakes, "", True) + provider_entries(fakes, "-nostream", False),
        "sessions": {"retentionMs": 60_000},
        "tokens": [token_entry("alice", ALICE, ["*"], ALL_GRANTS)],
    }
    return launch("providers", config, env={KEY_ENV: UPSTREAM_KEY}, log_level="debug")


def combos() -> list[Any]:
    found = []
    for adapter in ADAPTERS:
        for mode in ("history", "native") if adapter.native else ("history",):
            for upstream in ("stream", "nostream"):
                for client in ("run", "streamRun"):
                    found.append(
                        pytest.param(
                            adapter.name, mode, upstream, client, id=f"{adapter.name}-{mode}-{upstream}-{client}"
                        )
                    )
    return found


# -- the matrix --------------------------------------------------------------------------


def _turn(host: Host, body: Any, streamed: bool) -> RunResult:
    """One run answered as JSON or as a stream (then the last event carries the same result)."""
    with host.client(ALICE) as client:
        if not streamed:
            return run_ok(client, body)
        with stream_run(client, body) as events:
            collected = list(events)
    return _streamed_result(collected)


def _submit(host: Host, run_id: str, body: Any, streamed: bool) -> RunResult:
    with host.client(ALICE) as client:
        if not streamed:
            return submit_ok(client, run_id, body)
        with stream_run_actions(client, run_id, body) as events:
            collected = list(events)
    return _streamed_result(collected)


def _streamed_result(events: list[Any]) -> RunResult:
    last = events[-1]
    assert isinstance(last, RunCompletedEvent | RunRequiresActionEvent), last
    deltas = "".join(e.text for e in events if isinstance(e, OutputDeltaEvent))
    assert deltas == last.run.output.text
    return last.run


@pytest.mark.parametrize(("name", "mode", "upstream", "client"), combos())
def test_two_turns_with_a_function_round_trip_then_read(
    providers_host: Host, fakes: dict[str, FakeUpstream], name: str, mode: str, upstream: str, client: str
) -> None:
    adapter = BY_NAME[name]
    provider = name if upstream == "stream" else f"{name}-nostream"
    streamed = client == "streamRun"
    with providers_host.client(ALICE) as api:
        session = new_session(api, provider=provider, model=adapter.model, mode=mode, instructions="Be brief.")
    tools = [function_tool("get_weather")] if adapter.functions else None
    extra = {"tools": tools} if tools else {}

    first_input = CALL if adapter.functions else "My name is Ada."
    first = _turn(providers_host, run_request(first_input, session, **extra), streamed)
    if adapter.functions:
        assert first.status.value == "requires_action", first
        call = first.required_action.calls[0]
        assert (call.name, call.arguments.to_dict()) == ("get_weather", {"city": "Paris"})
        first = _submit(providers_host, first.id, function_results((call.call_id, "21 C")), streamed)
        assert first.output.text == "The function returned: 21 C"
    assert first.status.value == "completed"
    assert first.session.revision == 1

    second = _turn(providers_host, run_request("And now?", first.session, **extra), streamed)

    assert second.output.text == f"You said: And now?. Before that you said: {first_input}."
    assert second.session.revision == 2
    if adapter.kind != "cli":  # the fakes' usage, normalised: Anthropic's input excludes its cache reads and writes
        usage = second.usage
        anthropic = adapter.kind == "anthropic"
        assert (usage.input_tokens, usage.output_tokens) == (60 if anthropic else 50, 12)
        cache_writes = {"anthropic": 10, "openai-responses": 4}.get(adapter.kind, 0)
        assert (usage.cached_input_tokens, usage.cache_write_tokens) == (20, cache_writes)
        assert usage.reasoning_tokens == (0 if anthropic else 5)
    if adapter.native:
        # turn 2 replayed turn 1's signed items (one per model call), which the fake verified;
        # a history session sends none of them
        assert fakes[name].requests[-1].verified == (2 if adapter.functions and mode == "native" else 0)
    with providers_host.client(ALICE) as api:
        read = read_ok(api, session.id)
    assert [(m.role.value, m.content) for m in read.history] == [
        ("user", first_input),
        ("assistant", first.output.text),
        ("user", "And now?"),
        ("assistant", second.output.text),
    ]


def test_discovery_advertises_each_instances_true_capabilities(providers_host: Host) -> None:
    with providers_host.client(ALICE) as api:
        discovery = get_discovery.sync(client=api)

    seen = {p.id: (p.kind, p.capabilities) for p in discovery.providers}
    for adapter in ADAPTERS:
        for provider in (adapter.name, f"{adapter.name}-nostream"):
            kind, capabilities = seen[provider]
            assert kind == adapter.kind
            assert (
                capabilities.history_continuation,
                capabilities.native_continuation,
                capabilities.streaming,
                capabilities.application_functions,
            ) == (True, adapter.native, True, adapter.functions)


@pytest.mark.parametrize("name", ["chat", "cli"])
def test_a_native_session_on_a_history_only_adapter_is_unsupported(providers_host: Host, name: str) -> None:
    adapter = BY_NAME[name]
    with providers_host.client(ALICE) as api:
        response = create_session.sync_detailed(
            client=api, body=create_request(provider=name, model=adapter.model, mode="native")
        )

    assert_problem(response, 422, "UNSUPPORTED_CONTINUATION")


def test_functions_sent_to_an_adapter_without_them_are_refused_before_model_work(providers_host: Host) -> None:
    with providers_host.client(ALICE) as api:
        response = run.sync_detailed(
            client=api, body=run_request("Hi", provider="cli", model="cli-1", tools=[function_tool("get_weather")])
        )

    assert_problem(response, 422, "VALIDATION_ERROR")


def test_a_native_anthropic_turn_with_other_tools_is_refused_before_model_work(
    providers_host: Host, fakes: dict[str, FakeUpstream]
) -> None:
    with providers_host.client(ALICE) as api:
        session = new_session(api, provider="claude", model="claude-sonnet-5", mode="native")
        first = run_ok(api, run_request("Hello", session, tools=[function_tool("get_weather")]))
        calls_before = len(fakes["claude"].requests)

        changed = run.sync_detailed(
            client=api, body=run_request("Again", first.session, tools=[function_tool("other")])
        )
        same = run_ok(api, run_request("Again", first.session, tools=[function_tool("get_weather")]))

    body = assert_problem(changed, 422, "SESSION_PREFIX_CHANGED")
    assert "tool" in body["detail"]
    assert len(fakes["claude"].requests) == calls_before + 1  # only the accepted turn reached the model
    assert same.session.revision == 2


def test_a_cli_failure_is_a_provider_error_with_its_stderr(providers_host: Host) -> None:
    with providers_host.client(ALICE) as api:
        response = run.sync_detailed(client=api, body=run_request("!fail", provider="cli", model="cli-1"))

    body = assert_problem(response, 502, "PROVIDER_ERROR")
    assert "status 3" in body["detail"] and "out of memory" in body["detail"]


# -- errors, row by row ------------------------------------------------------------------------

# (adapter, failure kind, where) -> (status, code, Retry-After, upstream requests made)
ERROR_TABLE = [
    ("openai", "rate_limit", "http", 429, "PROVIDER_RATE_LIMITED", "20", 1),
    ("openai", "quota", "http", 429, "PROVIDER_RATE_LIMITED", None, 1),
    ("openai", "overloaded", "http", 503, "PROVIDER_OVERLOADED", None, 3),
    ("openai", "auth", "http", 502, "PROVIDER_AUTH_FAILED", None, 1),
    ("openai", "invalid", "http", 502, "PROVIDER_REJECTED", None, 1),
    ("openai", "server", "http", 502, "PROVIDER_ERROR", None, 3),
    ("openai", "overloaded", "stream", 503, "PROVIDER_OVERLOADED", None, 3),
    ("openai", "quota", "stream", 429, "PROVIDER_RATE_LIMITED", None, 1),
    ("claude", "rate_limit", "http", 429, "PROVIDER_RATE_LIMITED", "20", 1),
    ("claude", "quota", "http", 502, "PROVIDER_REJECTED", None, 1),  # Anthropic's spend limit is a 400
    ("claude", "overloaded", "http", 503, "PROVIDER_OVERLOADED", None, 3),  # HTTP 529
    ("claude", "auth", "http", 502, "PROVIDER_AUTH_FAILED", None, 1),
    ("claude", "invalid", "http", 502, "PROVIDER_REJECTED", None, 1),
    ("claude", "server", "http", 502, "PROVIDER_ERROR", None, 3),
    ("claude", "overloaded", "stream", 503, "PROVIDER_OVERLOADED", None, 3),
    ("claude", "server", "stream", 502, "PROVIDER_ERROR", None, 3),
    ("gemini", "rate_limit", "http", 429, "PROVIDER_RATE_LIMITED", "20", 1),  # RetryInfo.retryDelay
    ("gemini", "quota", "http", 429, "PROVIDER_RATE_LIMITED", None, 1),  # a per-day quota
    ("gemini", "overloaded", "http", 503, "PROVIDER_OVERLOADED", None, 3),
    ("gemini", "auth", "http", 502, "PROVIDER_AUTH_FAILED", None, 1),  # 400 API_KEY_INVALID
    ("gemini", "invalid", "http", 502, "PROVIDER_REJECTED", None, 1),
    ("gemini", "server", "http", 502, "PROVIDER_ERROR", None, 3),
    ("gemini", "rate_limit", "stream", 429, "PROVIDER_RATE_LIMITED", "20", 1),
    ("gemini", "overloaded", "stream", 503, "PROVIDER_OVERLOADED", None, 3),
    ("chat", "rate_limit", "http", 429, "PROVIDER_RATE_LIMITED", "20", 1),
    ("chat", "quota", "http", 429, "PROVIDER_RATE_LIMITED", None, 1),
    ("chat", "overloaded", "http", 503, "PROVIDER_OVERLOADED", None, 3),
    ("chat", "auth", "http", 502, "PROVIDER_AUTH_FAILED", None, 1),
    ("chat", "invalid", "http", 502, "PROVIDER_REJECTED", None, 1),
    ("chat", "server", "http", 502, "PROVIDER_ERROR", None, 3),
    ("chat", "server", "stream", 502, "PROVIDER_ERROR", None, 3),
]


@pytest.mark.parametrize(
    ("name", "kind", "where", "status", "code", "retry_after", "attempts"),
    ERROR_TABLE,
    ids=[f"{row[0]}-{row[1]}-{row[2]}" for row in ERROR_TABLE],
)
def test_error_mapping(
    providers_host: Host,
    fakes: dict[str, FakeUpstream],
    name: str,
    kind: Any,
    where: Any,
    status: int,
    code: str,
    retry_after: str | None,
    attempts: int,
) -> None:
    fake = fakes[name]
    fake.reset()
    fake.fail_next(kind, where=where, retry_after=20 if kind == "rate_limit" else None, times=attempts)
    body = run_request("Hello", provider=name, model=BY_NAME[name].model)

    with providers_host.client(ALICE) as api:
        response = run.sync_detailed(client=api, body=body)

    problem = assert_problem(response, status, code)
    assert response.headers.get("retry-after") == retry_after
    assert problem.get("retryAfterSeconds") == (None if retry_after is None else int(retry_after))
    assert problem["detail"].startswith(f"Provider {name!r} failed: ")
    assert len(fake.requests) == attempts  # retried only what may be retried, before any output
    assert not fake.failures


@pytest.mark.parametrize("name", ["openai", "claude", "gemini", "chat"])
def test_a_failure_mid_stream_is_a_run_failed_event_with_the_mapped_problem(
    providers_host: Host, fakes: dict[str, FakeUpstream], name: str
) -> None:
    fakes[name].reset()
    fakes[name].fail_next("overloaded", where="stream", times=3)

    with (
        providers_host.client(ALICE) as api,
        stream_run(api, run_request("Hello", provider=name, model=BY_NAME[name].model)) as events,
    ):
        collected = list(events)

    failed = collected[-1]
    assert isinstance(failed, RunFailedEvent)
    assert (failed.problem.status, failed.problem.code.value) == (503, "PROVIDER_OVERLOADED")


@pytest.mark.parametrize("name", ["openai", "claude", "gemini", "chat"])
def test_a_retryable_failure_before_any_output_is_retried_and_the_run_completes(
    providers_host: Host, fakes: dict[str, FakeUpstream], name: str
) -> None:
    fakes[name].reset()
    fakes[name].fail_next("rate_limit", retry_after=0)

    with providers_host.client(ALICE) as api:
        result = run_ok(api, run_request("Hello", provider=name, model=BY_NAME[name].model))

    assert result.output.text == "You said: Hello. Before that you said: nothing."
    assert [r.outcome for r in fakes[name].requests] == ["rate_limit", "ok"]
    # The refused attempt is reported: one retry, which the provider did not bill.
    assert (result.retries.count, result.retries.input_tokens, result.retries.output_tokens) == (1, 0, 0)


@pytest.mark.parametrize("name", ["openai", "claude", "gemini", "chat"])
def test_a_session_counts_the_retries_of_its_turns(
    providers_host: Host, fakes: dict[str, FakeUpstream], name: str
) -> None:
    fakes[name].reset()
    with providers_host.client(ALICE) as api:
        session = new_session(api, provider=name, model=BY_NAME[name].model)
        fakes[name].fail_next("overloaded", times=2)
        first = run_ok(api, run_request("Hello", session, provider=name, model=BY_NAME[name].model))
        second = run_ok(api, run_request("Again", first.session, provider=name, model=BY_NAME[name].model))

    assert (first.retries.count, second.retries.count) == (2, 0)
    assert second.session.retries.count == 2 and second.session.run_count == 2


@pytest.mark.parametrize("name", ["openai", "claude", "gemini", "chat"])
def test_an_upstream_error_that_repeats_the_api_key_never_shows_it(
    providers_host: Host, fakes: dict[str, FakeUpstream], name: str
) -> None:
    fakes[name].reset()
    fakes[name].fail_next("leak", times=3)  # retried, so the host logs it too (at warning level)

    with providers_host.client(ALICE) as api:
        response = run.sync_detailed(client=api, body=run_request("Hello", provider=name, model=BY_NAME[name].model))
        fakes[name].fail_next("leak", times=3)
        with stream_run(api, run_request("Hello", provider=name, model=BY_NAME[name].model)) as events:
            streamed = list(events)

    problem = assert_problem(response, 502, "PROVIDER_ERROR")
    assert "[redacted]" in problem["detail"]
    assert UPSTREAM_KEY not in response.content.decode()
    assert isinstance(streamed[-1], RunFailedEvent) and UPSTREAM_KEY not in streamed[-1].problem.detail
    log = providers_host.log_text()
    assert "retry" in log and "[redacted]" in log
    assert UPSTREAM_KEY not in log


def test_the_host_refuses_to_start_without_the_api_key_variable(tmp_path: Path, fakes: dict[str, FakeUpstream]) -> None:
    import subprocess

    config = tmp_path / "host.json"
    config.write_text(
        '{"providers": [{"id": "openai", "kind": "openai-responses", "models": ["gpt-5"], '
        f'"apiKeyEnv": "{KEY_ENV}_MISSING"' + "}]}",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "agentic_driver", "serve", "--config", str(config), "--port", "0"],
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )

    assert done.returncode == 2
    assert f"providers[0].apiKeyEnv: environment variable '{KEY_ENV}_MISSING' is not set" in done.stderr
