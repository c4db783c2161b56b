"""Native history filters on the three native adapters, each in its provider's own terms, against the fakes.

Per adapter and filter, a three-turn native session (a tool round, then two plain turns) on a thinking model:
Anthropic with ``thinking`` (a signed ``thinking`` and a ``redacted_thinking`` block per answer), OpenAI with
encrypted ``reasoning`` items, Gemini with thought summaries beside its signed parts. The filter's input and
output are captured at each stored turn and compared item by item: what a filter removes is gone whole, what
it keeps is unchanged, and the fake (which verifies every signature as the provider does) accepts the
filtered replay on the next turns.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from fakes import AnthropicFake, FakeUpstream, GeminiFake, OpenAIResponsesFake

from agentic_driver import Driver
from agentic_driver.config import parse_config
from agentic_driver.models import (
    CreateSessionRequest,
    FunctionResult,
    RunRequest,
    SessionHandle,
    SessionInfo,
    SubmitRunActionsRequest,
    ToolDefinition,
)
from agentic_driver.providers.anthropic import AnthropicProvider
from agentic_driver.providers.anthropic import filter_native as filter_anthropic
from agentic_driver.providers.base import ModelRequest, NativeItems, RejectedFailure, ToolSpec
from agentic_driver.providers.gemini import GeminiProvider
from agentic_driver.providers.gemini import filter_native as filter_gemini
from agentic_driver.providers.history_filters import TOOL_RESULT_PLACEHOLDER, compact_content
from agentic_driver.providers.openai_responses import OpenAIResponsesProvider
from agentic_driver.providers.openai_responses import filter_native as filter_openai_responses

KEY = "sk-filter-test-key"
KEY_ENV = "AGENTIC_DRIVER_TEST_FILTER_KEY"
TOOLS = [ToolDefinition(name="get_weather", parameters={"type": "object"})]
RESULT = "Sunny, 21 C, a light wind from the south-west and 40 percent humidity."
MAX_CHARS = 12
KINDS = ("openai-responses", "anthropic", "gemini")
FILTERS = ("no_reasoning", "no_tool_results", "compact_tool_results")
CLASSES: dict[str, Any] = {
    "openai-responses": OpenAIResponsesProvider,
    "anthropic": AnthropicProvider,
    "gemini": GeminiProvider,
}
FILTER_FUNCTIONS: dict[str, Any] = {
    "openai-responses": filter_openai_responses,
    "anthropic": filter_anthropic,
    "gemini": filter_gemini,
}
THINKING = {
    "openai-responses": {},
    "anthropic": {"thinking": {"type": "enabled", "budget_tokens": 1024}},
    "gemini": {"generationConfig": {"thinkingConfig": {"includeThoughts": True}}},
}
SIGNED_PER_ANSWER = {"openai-responses": 1, "anthropic": 2, "gemini": 1}
"""Signed or encrypted items each model answer carries (Anthropic: a thinking and a redacted_thinking block)."""


@pytest.fixture(scope="module")
def fakes() -> Iterator[dict[str, FakeUpstream]]:
    anthropic = AnthropicFake(api_key=KEY)
    anthropic.redacted = True
    started: dict[str, FakeUpstream] = {
        "openai-responses": OpenAIResponsesFake(api_key=KEY).start(),
        "anthropic": anthropic.start(),
        "gemini": GeminiFake(api_key=KEY).start(),
    }
    yield started
    for fake in started.values():
        fake.stop()


@pytest.fixture
async def driver(fakes: dict[str, FakeUpstream], monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Driver]:
    monkeypatch.setenv(KEY_ENV, KEY)
    providers = [
        {
            "id": f"{kind}-{'stream' if stream else 'json'}",
            "kind": kind,
            "accountId": "acct",
            "models": ["m-1"],
            "baseUrl": fake.base_url,
            "apiKeyEnv": KEY_ENV,
            "stream": stream,
            "maxRetries": 0,
            "extraBody": THINKING[kind],
        }
        for kind, fake in fakes.items()
        for stream in (True, False)
    ]
    sessions = {"retentionMs": 60_000, "compactToolResultsMaxChars": MAX_CHARS}
    async with Driver.from_config(parse_config({"providers": providers, "sessions": sessions})) as made:
        yield made


@pytest.fixture
def filtered(monkeypatch: pytest.MonkeyPatch) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every (turn items, what the filter kept) pair, as each turn is stored."""
    seen: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    for cls in CLASSES.values():
        original = cls.filter_native

        def capture(self: Any, items: Any, mode: str, max_chars: int, _original: Any = original) -> tuple[str, ...]:
            kept = _original(self, items, mode, max_chars)
            seen.append((tuple(items), kept))
            return kept

        monkeypatch.setattr(cls, "filter_native", capture)
    return seen


# -- each provider's items, read the way the provider reads them ------------------------------------------


def reasoning_count(kind: str, items: tuple[str, ...]) -> int:
    parsed = [json.loads(raw) for raw in items]
    if kind == "openai-responses":
        return sum(item.get("type") == "reasoning" for item in parsed)
    if kind == "anthropic":
        return sum(
            block.get("type") in ("thinking", "redacted_thinking")
            for m in parsed
            if m["role"] == "assistant"
            for block in m["content"]
        )
    return sum(part.get("thought") is True for c in parsed for part in c["parts"])


def without_reasoning(kind: str, raw: str) -> str | None:
    """The item as ``no_reasoning`` must keep it: itself, byte for byte, or without its reasoning blocks."""
    item = json.loads(raw)
    if kind == "openai-responses":
        return None if item.get("type") == "reasoning" else raw
    if kind == "anthropic" and item["role"] == "assistant":
        blocks = [b for b in item["content"] if b["type"] not in ("thinking", "redacted_thinking")]
        return json.dumps({**item, "content": blocks}, ensure_ascii=False, separators=(",", ":"))
    if kind == "gemini" and item["role"] == "model":
        parts = [p for p in item["parts"] if not (p.get("thought") is True and "thoughtSignature" not in p)]
        return json.dumps({**item, "parts": parts}, ensure_ascii=False, separators=(",", ":"))
    return raw


def results(kind: str, items: tuple[str, ...]) -> list[Any]:
    """Every tool result's content, in order."""
    parsed = [json.loads(raw) for raw in items]
    if kind == "openai-responses":
        return [item["output"] for item in parsed if item.get("type") == "function_call_output"]
    if kind == "anthropic":
        return [b["content"] for m in parsed if m["role"] == "user" for b in m["content"] if b["type"] == "tool_result"]
    return [p["functionResponse"]["response"]["result"] for c in parsed for p in c["parts"] if "functionResponse" in p]


def calls(kind: str, items: tuple[str, ...]) -> list[str]:
    """Every tool call's id (Gemini: its name; its calls carry no id), in order."""
    parsed = [json.loads(raw) for raw in items]
    if kind == "openai-responses":
        return [item["call_id"] for item in parsed if item.get("type") == "function_call"]
    if kind == "anthropic":
        return [b["id"] for m in parsed if m["role"] == "assistant" for b in m["content"] if b["type"] == "tool_use"]
    return [p["functionCall"]["name"] for c in parsed for p in c["parts"] if "functionCall" in p]


def result_ids(kind: str, items: tuple[str, ...]) -> list[str]:
    parsed = [json.loads(raw) for raw in items]
    if kind == "openai-responses":
        return [item["call_id"] for item in parsed if item.get("type") == "function_call_output"]
    if kind == "anthropic":
        return [
            b["tool_use_id"] for m in parsed if m["role"] == "user" for b in m["content"] if b["type"] == "tool_result"
        ]
    return [p["functionResponse"]["name"] for c in parsed for p in c["parts"] if "functionResponse" in p]


def without_results(raw: str) -> Any:
    """An item with every tool result's content blanked, to compare what a result filter must leave alone."""
    item = json.loads(raw)
    if item.get("type") == "function_call_output":
        return {**item, "output": None}
    if isinstance(item.get("content"), list):
        return {
            **item,
            "content": [{**b, "content": None} if b["type"] == "tool_result" else b for b in item["content"]],
        }
    if isinstance(item.get("parts"), list):
        return {
            **item,
            "parts": [
                {"functionResponse": {**p["functionResponse"], "response": None}} if "functionResponse" in p else p
                for p in item["parts"]
            ],
        }
    return item


# -- the three-turn session ----------------------------------------------------------------------------------


def _next(session: SessionInfo, text: str, provider: str) -> RunRequest:
    handle = SessionHandle(id=session.id, revision=session.revision)
    return RunRequest(provider=provider, model="m-1", input=text, session=handle, tools=TOOLS)


async def three_turns(driver: Driver, provider: str, native_history: str) -> SessionInfo:
    created = await driver.create_session(
        CreateSessionRequest(provider=provider, model="m-1", mode="native", nativeHistory=native_history)
    )
    assert created.session.nativeHistory == native_history
    paused = await driver.run(_next(created.session, 'call get_weather {"city": "Paris"}', provider))
    answer = FunctionResult(callId=paused.requiredAction.calls[0].callId, output=RESULT)
    first = await driver.submit_run_actions(paused.id, SubmitRunActionsRequest(functionResults=[answer]))
    assert first.output.text == f"The function returned: {RESULT}"  # filters apply when a turn is stored
    second = await driver.run(_next(first.session, "And now?", provider))
    assert second.output.text == 'You said: And now?. Before that you said: call get_weather {"city": "Paris"}.'
    third = await driver.run(_next(second.session, "Third?", provider))
    assert third.output.text == (
        'You said: Third?. Before that you said: call get_weather {"city": "Paris"} | And now?.'
    )
    return third.session


@pytest.mark.parametrize("stream", ["stream", "json"])
@pytest.mark.parametrize("mode", FILTERS)
@pytest.mark.parametrize("kind", KINDS)
async def test_a_filtered_three_turn_session_replays_and_the_fake_verifies_what_is_kept(
    driver: Driver,
    fakes: dict[str, FakeUpstream],
    filtered: list[tuple[tuple[str, ...], tuple[str, ...]]],
    kind: str,
    mode: str,
    stream: str,
) -> None:
    fake = fakes[kind]
    fake.reset()
    session = await three_turns(driver, f"{kind}-{stream}", mode)

    assert [r.outcome for r in fake.requests] == ["ok"] * 4  # the call, the answer to its result, two turns
    assert len(filtered) == 3  # one filter pass per stored turn
    for turn_items, kept in filtered:
        assert reasoning_count(kind, turn_items) > 0  # every turn had reasoning to remove
        if mode == "no_reasoning":
            assert reasoning_count(kind, kept) == 0
            # removed whole, everything else unchanged (user messages and results byte for byte)
            assert list(kept) == [k for k in (without_reasoning(kind, raw) for raw in turn_items) if k is not None]
        else:
            assert [without_results(raw) for raw in kept] == [without_results(raw) for raw in turn_items]
            assert [k for k in kept if k not in turn_items] == [k for k in kept if results(kind, (k,))]
    tool_turn_in, tool_turn_kept = filtered[0]
    assert calls(kind, tool_turn_kept) == calls(kind, tool_turn_in) and len(calls(kind, tool_turn_kept)) == 1
    assert result_ids(kind, tool_turn_kept) == calls(kind, tool_turn_kept)  # call and result still paired
    if mode == "no_tool_results":
        assert results(kind, tool_turn_kept) == [TOOL_RESULT_PLACEHOLDER]
    elif mode == "compact_tool_results":
        assert results(kind, tool_turn_kept) == [RESULT[: MAX_CHARS - 1] + "…"]
        assert len(results(kind, tool_turn_kept)[0]) == MAX_CHARS

    record = driver.store.get(session.id)
    assert record is not None
    assert list(record.native) == [raw for _, kept in filtered for raw in kept]  # stored = filtered
    # the last request replayed the stored turns 1 and 2 (the fake verified what they still carry)
    answers_replayed = 3
    signed = 0 if mode == "no_reasoning" and kind != "gemini" else SIGNED_PER_ANSWER[kind] * answers_replayed
    assert fake.requests[-1].verified == signed


@pytest.mark.parametrize("kind", KINDS)
async def test_no_reasoning_keeps_geminis_signed_parts_and_drops_every_other_signed_block(
    driver: Driver, filtered: list[tuple[tuple[str, ...], tuple[str, ...]]], kind: str
) -> None:
    await three_turns(driver, f"{kind}-stream", "no_reasoning")

    for turn_items, kept in filtered:
        signatures_in = [s for raw in turn_items for s in _signatures(kind, raw)]
        assert [s for raw in kept for s in _signatures(kind, raw)] == (signatures_in if kind == "gemini" else [])


def _signatures(kind: str, raw: str) -> list[str]:
    item = json.loads(raw)
    if kind == "gemini":
        return [p["thoughtSignature"] for p in item.get("parts", ()) if "thoughtSignature" in p]
    if kind == "anthropic":
        return [
            b.get("signature") or b.get("data")
            for b in item["content"]
            if b["type"] in ("thinking", "redacted_thinking")
        ]
    return [item["encrypted_content"]] if item.get("type") == "reasoning" else []


# -- a history that ends inside a tool round ------------------------------------------------------------------


def _open_round(kind: str, turn_items: tuple[str, ...]) -> tuple[str, ...]:
    """A tool turn's items up to its results: the model asked, the results went back, no answer yet."""
    last_result = max(i for i, raw in enumerate(turn_items) if results(kind, (raw,)))
    return turn_items[: last_result + 1]


@pytest.mark.parametrize("mode", FILTERS)
@pytest.mark.parametrize("kind", KINDS)
async def test_a_history_ending_inside_a_tool_round_keeps_that_round_exactly_and_the_fake_accepts_it(
    driver: Driver,
    fakes: dict[str, FakeUpstream],
    filtered: list[tuple[tuple[str, ...], tuple[str, ...]]],
    kind: str,
    mode: str,
) -> None:
    await three_turns(driver, f"{kind}-json", "no_reasoning")  # captures each turn's unfiltered items
    tool_turn, closed_turn = filtered[0][0], filtered[1][0]
    open_round = _open_round(kind, tool_turn)
    provider: Any = driver._providers[f"{kind}-json"]

    kept = provider.filter_native((*closed_turn, *open_round), mode, MAX_CHARS)

    round_start = 1  # the user's message is not part of the round; everything after it is
    assert kept[-(len(open_round) - round_start) :] == open_round[round_start:]
    assert kept[: -(len(open_round) - round_start)] == provider.filter_native(
        (*closed_turn, open_round[0]), mode, MAX_CHARS
    )
    # the kept open round replays: the provider answers the pending results
    fake = fakes[kind]
    request = ModelRequest("m-1", "ignored", native=kept, turn_items=(), tools=[ToolSpec("get_weather", "", {})])
    events = [event async for event in provider.turn(request, native=True)]
    assert fake.requests[-1].outcome == "ok"
    assert any(isinstance(event, NativeItems) for event in events)


async def test_anthropic_refuses_an_open_round_whose_thinking_was_stripped(
    driver: Driver, filtered: list[tuple[tuple[str, ...], tuple[str, ...]]]
) -> None:
    """Why the exception exists: the fake, like Anthropic, refuses an edited latest assistant message."""
    await three_turns(driver, "anthropic-json", "no_reasoning")
    open_round = list(_open_round("anthropic", filtered[0][0]))
    asking = json.loads(open_round[1])
    asking["content"] = [b for b in asking["content"] if b["type"] not in ("thinking", "redacted_thinking")]
    open_round[1] = json.dumps(asking)
    provider: Any = driver._providers["anthropic-json"]
    request = ModelRequest("m-1", "ignored", native=open_round, tools=[ToolSpec("get_weather", "", {})])

    with pytest.raises(RejectedFailure) as caught:
        _ = [event async for event in provider.turn(request, native=True)]

    assert "Expected `thinking` or `redacted_thinking`, but found `tool_use`" in str(caught.value)


# -- compacting lists of text blocks --------------------------------------------------------------------------


def test_compact_cuts_a_string_and_a_list_of_text_blocks_alike_within_the_cap() -> None:
    text = "abcdefghijklmnopqrstuvwxyz"
    blocks = [
        {"type": "text", "text": "abcdefgh"},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0K"}},
        {"type": "input_text", "text": "ijklmnopqrstuvwxyz"},
        {"type": "text", "text": "after the cap"},
    ]

    assert compact_content(text, 10) == "abcdefghi…"
    assert compact_content(text, 26) == text
    assert compact_content(blocks, 10) == [blocks[0], blocks[1], {"type": "input_text", "text": "i…"}]
    cut = compact_content(blocks, 10)
    assert sum(len(b["text"]) for b in cut if "text" in b) == 10
    assert compact_content({"n": 1}, 10) == {"n": 1}


@pytest.mark.parametrize("kind", KINDS)
def test_compact_on_each_adapter_cuts_a_list_shaped_result_and_leaves_short_ones_byte_identical(kind: str) -> None:
    long_list = [{"type": "text", "text": "x" * 20}, {"type": "text", "text": "y" * 20}]
    if kind == "openai-responses":
        items = (
            json.dumps({"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}),
            json.dumps({"type": "function_call_output", "call_id": "c1", "output": long_list}),
            json.dumps({"type": "function_call_output", "call_id": "c1", "output": "short"}),
            json.dumps({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "ok"}]}),
        )
        read = lambda kept: json.loads(kept[1])["output"]  # noqa: E731
    elif kind == "anthropic":
        items = (
            json.dumps({"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}]}),
            json.dumps(
                {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": "t1", "content": long_list}],
                }
            ),
            json.dumps({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "short"}]}),
            json.dumps({"role": "assistant", "content": [{"type": "text", "text": "ok"}]}),
        )
        read = lambda kept: json.loads(kept[1])["content"][0]["content"]  # noqa: E731
    else:
        items = (
            json.dumps(
                {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}, "thoughtSignature": "s"}]}
            ),
            json.dumps(
                {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {"result": "z" * 40}}}]}
            ),
            json.dumps(
                {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {"result": "short"}}}]}
            ),
            json.dumps({"role": "model", "parts": [{"text": "ok", "thoughtSignature": "s2"}]}),
        )
        read = lambda kept: json.loads(kept[1])["parts"][0]["functionResponse"]["response"]["result"]  # noqa: E731

    kept = FILTER_FUNCTIONS[kind](items, "compact_tool_results", 10)

    cut = read(kept)
    total = len(cut) if isinstance(cut, str) else sum(len(b["text"]) for b in cut)
    assert total == 10 and (cut.endswith("…") if isinstance(cut, str) else cut[-1]["text"].endswith("…"))
    assert kept[0] == items[0] and kept[2] == items[2] and kept[3] == items[3]  # untouched: byte-identical


async def test_discovery_lists_the_filters_on_each_native_instance(driver: Driver) -> None:
    discovery = await driver.discovery()
    filters = {p.id: p.capabilities.nativeHistoryFilters for p in discovery.providers}
    for kind in KINDS:
        for stream in ("stream", "json"):
            assert filters[f"{kind}-{stream}"] == ["full", *FILTERS]
