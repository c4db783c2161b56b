"""Native replay as the real services check it: a tampered or missing signed item fails the turn clearly.

An embedded ``Driver`` runs the real adapters against the fakes; the test
reaches into the driver's session store between turns, changes or removes one
signature (OpenAI ``encrypted_content``, Anthropic thinking ``signature``,
Gemini ``thoughtSignature``), and the next turn must fail with the provider's
own 400 mapped to ``PROVIDER_REJECTED``, leaving the session interrupted.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
from fakes import AnthropicFake, FakeUpstream, GeminiFake, OpenAIResponsesFake

from agentic_driver import Driver
from agentic_driver.config import parse_config
from agentic_driver.errors import ProviderRejected
from agentic_driver.models import (
    CreateSessionRequest,
    FunctionResult,
    RunRequest,
    SessionHandle,
    SubmitRunActionsRequest,
    ToolDefinition,
)

KEY = "sk-replay-test-key"
KEY_ENV = "AGENTIC_DRIVER_TEST_REPLAY_KEY"
TOOLS = [ToolDefinition(name="get_weather", parameters={"type": "object"})]


@pytest.fixture(scope="module")
def fakes() -> Iterator[dict[str, FakeUpstream]]:
    started: dict[str, FakeUpstream] = {
        "openai-responses": OpenAIResponsesFake(api_key=KEY).start(),
        "anthropic": AnthropicFake(api_key=KEY).start(),
        "gemini": GeminiFake(api_key=KEY).start(),
    }
    yield started
    for fake in started.values():
        fake.stop()


@pytest.fixture
async def driver(fakes: dict[str, FakeUpstream], monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Driver]:
    monkeypatch.setenv(KEY_ENV, KEY)
    providers: list[dict[str, Any]] = []
    for kind, fake in fakes.items():
        for stream in (True, False):
            entry = {
                "id": f"{kind}-{'stream' if stream else 'json'}",
                "kind": kind,
                "accountId": "acct",
                "models": ["m-1"],
                "baseUrl": fake.base_url,
                "apiKeyEnv": KEY_ENV,
                "stream": stream,
                "maxRetries": 0,
            }
            if kind == "anthropic":
                entry["extraBody"] = {"thinking": {"type": "enabled", "budget_tokens": 1024}}
            providers.append(entry)
    async with Driver.from_config(parse_config({"providers": providers, "sessions": {"retentionMs": 60_000}})) as made:
        yield made


def _openai(item: dict[str, Any], how: str) -> bool:
    if item.get("type") != "reasoning":
        return False
    if how == "missing":
        del item["encrypted_content"]
    else:
        item["encrypted_content"] = item["encrypted_content"][:-6] + "AAAAAA"
    return True


def _anthropic(item: dict[str, Any], how: str) -> bool:
    for block in item.get("content") if item.get("role") == "assistant" else ():
        if block.get("type") == "thinking":
            if how == "missing":
                del block["signature"]
            else:
                block["signature"] = (
                    "A" + block["signature"][1:] if block["signature"][0] != "A" else "B" + block["signature"][1:]
                )
            return True
    return False


def _gemini(item: dict[str, Any], how: str) -> bool:
    for part in item.get("parts") if item.get("role") == "model" else ():
        if "thoughtSignature" in part:
            if how == "missing":
                del part["thoughtSignature"]
            else:
                part["thoughtSignature"] = part["thoughtSignature"][::-1]
            return True
    return False


TAMPER: dict[str, Callable[[dict[str, Any], str], bool]] = {
    "openai-responses": _openai,
    "anthropic": _anthropic,
    "gemini": _gemini,
}
REJECTION = {
    "openai-responses": {"changed": "could not be verified", "missing": "no 'encrypted_content'"},
    "anthropic": {
        "changed": "Invalid `signature` in `thinking` block",
        "missing": "thinking.signature: Field required",
    },
    "gemini": {"changed": "Thought signature is not valid", "missing": "missing a thought_signature"},
}


async def _first_turn(driver: Driver, provider: str) -> Any:
    created = await driver.create_session(CreateSessionRequest(provider=provider, model="m-1", mode="native"))
    handle = SessionHandle(id=created.session.id, revision=0)
    paused = await driver.run(
        RunRequest(
            provider=provider, model="m-1", input='call get_weather {"city": "Paris"}', session=handle, tools=TOOLS
        )
    )
    call = paused.requiredAction.calls[0]
    done = await driver.submit_run_actions(
        paused.id, SubmitRunActionsRequest(functionResults=[FunctionResult(callId=call.callId, output="21 C")])
    )
    assert done.output.text == "The function returned: 21 C"
    return done.session


@pytest.mark.parametrize("stream", ["stream", "json"])
@pytest.mark.parametrize("kind", ["openai-responses", "anthropic", "gemini"])
async def test_untouched_native_state_replays_and_verifies(driver: Driver, fakes, kind: str, stream: str) -> None:
    provider = f"{kind}-{stream}"
    session = await _first_turn(driver, provider)

    second = await driver.run(
        RunRequest(
            provider=provider,
            model="m-1",
            input="And now?",
            session=SessionHandle(id=session.id, revision=session.revision),
            tools=TOOLS,
        )
    )

    assert second.output.text.startswith("You said: And now?. Before that you said: call get_weather")
    assert fakes[kind].requests[-1].verified == 2
    record = driver.store.get(session.id)
    # turn 1: the user message, the call, its result, the reply; turn 2: the user message, the reply.
    # OpenAI keeps each reasoning item as an item of its own (one per model call).
    assert record is not None and len(record.native) == {"openai-responses": 9, "anthropic": 6, "gemini": 6}[kind]


@pytest.mark.authority_exempt("the replayed signature is changed or removed on purpose: the fake refuses it")
@pytest.mark.parametrize("how", ["changed", "missing"])
@pytest.mark.parametrize("stream", ["stream", "json"])
@pytest.mark.parametrize("kind", ["openai-responses", "anthropic", "gemini"])
async def test_a_tampered_native_item_fails_with_the_providers_rejection(
    driver: Driver, kind: str, stream: str, how: str
) -> None:
    provider = f"{kind}-{stream}"
    session = await _first_turn(driver, provider)
    record = driver.store.get(session.id)
    assert record is not None
    for index, raw in enumerate(record.native):
        item = json.loads(raw)
        if TAMPER[kind](item, how):
            record.native[index] = json.dumps(item)
            break
    else:
        raise AssertionError("no signed item to tamper with")

    with pytest.raises(ProviderRejected) as caught:
        await driver.run(
            RunRequest(
                provider=provider,
                model="m-1",
                input="And now?",
                session=SessionHandle(id=session.id, revision=session.revision),
                tools=TOOLS,
            )
        )

    assert caught.value.status == 502
    assert caught.value.detail.startswith(f"Provider {provider!r} failed: the provider rejected the request (HTTP 400")
    assert REJECTION[kind][how] in caught.value.detail
    assert record.status == "interrupted"
