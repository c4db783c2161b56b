"""The authority checks themselves: they pass what the adapters and fakes exchange, and catch what is wrong.

Every test in the suite already runs under them (``tests/conftest.py``); these tests show that the
checks are not vacuous: an unknown key, a missing required key or a wrong type in a request the
adapter built, a fake response or a stream event is reported with its JSON path, and the documented
stricter-than-API cases are excused only where they apply.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from authority import STRICTER_THAN_API, Discrepancy, check
from fakes import AnthropicFake, GeminiFake, OpenAIChatFake, OpenAIResponsesFake
from fakes.script import Answer

from agentic_driver.providers import anthropic as anthropic_wire
from agentic_driver.providers import gemini as gemini_wire
from agentic_driver.providers import openai_chat as chat_wire
from agentic_driver.providers import openai_responses as responses_wire
from agentic_driver.providers.base import ModelRequest, ToolSpec, VisibleMessage

TOOLS = (ToolSpec("lookup", "Finds a thing.", {"type": "object", "properties": {"q": {"type": "string"}}}),)
REQUEST = ModelRequest(
    "m-1",
    "What is my name?",
    instructions="Be brief.",
    messages=(VisibleMessage("user", "My name is Ada."), VisibleMessage("assistant", "Hello Ada.")),
    tools=TOOLS,
)
OPTIONS = {"max_output_tokens": 64, "temperature": 0}


def _request(adapter: str, *, stream: bool) -> dict[str, Any]:
    if adapter == "openai-responses":
        return responses_wire.map_request(REQUEST, {"max_output_tokens": 64}, stream=stream)[0]
    if adapter == "openai-chat":
        return chat_wire.map_request(REQUEST, {"max_completion_tokens": 64}, stream=stream)[0]
    if adapter == "anthropic":
        return anthropic_wire.map_request(REQUEST, {"max_tokens": 64}, stream=stream)[0]
    return gemini_wire.map_request(REQUEST, {"generationConfig": {"maxOutputTokens": 64}})[0]


ADAPTERS = ["openai-responses", "openai-chat", "anthropic", "gemini"]


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "json"])
@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_request_the_adapter_builds_is_valid_and_an_unknown_key_in_it_is_named(adapter: str, stream: bool) -> None:
    body = _request(adapter, stream=stream)
    assert check(adapter, "request", body) == []

    spoiled = copy.deepcopy(body)
    messages = spoiled.get("input") or spoiled.get("messages") or spoiled.get("contents")
    messages[0]["colour"] = "blue"
    key = {"openai-responses": "input", "openai-chat": "messages", "anthropic": "messages", "gemini": "contents"}
    found = check(adapter, "request", spoiled)
    assert [d.path for d in found] == [f"{key[adapter]}[0].colour"], found


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_request_missing_what_the_authority_requires_is_named(adapter: str) -> None:
    body = _request(adapter, stream=False)
    # Responses makes ``model`` optional (a stored prompt may name it); a function tool needs its name
    where = {
        "openai-responses": "tools[0].name",
        "openai-chat": "model",
        "anthropic": "max_tokens",
        "gemini": "contents",
    }
    if adapter == "openai-responses":
        del body["tools"][0]["name"]
    else:
        del body[where[adapter]]

    assert [d.path for d in check(adapter, "request", body)] == [where[adapter]]


def _fake_answers(adapter: str, reply: Answer) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A fake's whole response and its stream events for ``reply`` (no server: the builders only)."""
    if adapter == "openai-responses":
        responses = OpenAIResponsesFake()
        whole = responses.response({"model": "m-1", "store": False}, reply)
        return whole, _events(responses.events(whole, reply, None))
    if adapter == "openai-chat":
        chat = OpenAIChatFake()
        whole = chat.completion({"model": "m-1"}, reply)
        return whole, _events(chat.chunks(whole, True, None))
    if adapter == "anthropic":
        claude = AnthropicFake()
        whole = claude.message({"model": "m-1", "thinking": {"type": "enabled"}}, reply)
        return whole, _events(claude.events(whole, None))
    gemini = GeminiFake()
    return gemini.response("m-1", reply), _events(gemini.chunks("m-1", reply, None))


def _events(frames: Any) -> list[dict[str, Any]]:
    found = []
    for frame in frames:
        for line in frame.decode().splitlines():
            if line.startswith("data:") and line[5:].strip() != "[DONE]":
                found.append(json.loads(line[5:]))
    return found


REPLIES = {
    "text": Answer(text="You said: hi.", thought="Answer the latest."),
    "call": Answer(call=("lookup", {"q": "Ada"}), thought="I should call lookup."),
}


@pytest.mark.parametrize("reply", list(REPLIES))
@pytest.mark.parametrize("adapter", ADAPTERS)
def test_every_fake_response_and_stream_event_is_valid(adapter: str, reply: str) -> None:
    whole, events = _fake_answers(adapter, REPLIES[reply])

    assert check(adapter, "response", whole) == []
    assert events and [(e, check(adapter, "event", e)) for e in events if check(adapter, "event", e)] == []


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_an_undeclared_key_deep_in_a_fake_response_is_named(adapter: str) -> None:
    whole = copy.deepcopy(_fake_answers(adapter, REPLIES["text"])[0])  # the fakes share their usage dicts
    where = {
        "openai-responses": (lambda: whole["output"][1]["content"][0], "output[1].content[0].mood"),
        "openai-chat": (lambda: whole["choices"][0]["message"], "choices[0].message.mood"),
        "anthropic": (lambda: whole["usage"], "usage.mood"),
        "gemini": (lambda: whole["candidates"][0]["content"]["parts"][0], "candidates[0].content.parts[0].mood"),
    }
    find, path = where[adapter]
    node = find()
    node["mood"] = "cheerful"

    assert [d.path for d in check(adapter, "response", whole)] == [path]


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_stream_event_of_the_wrong_type_is_named(adapter: str) -> None:
    _, events = _fake_answers(adapter, REPLIES["text"])
    event = copy.deepcopy(events[-1])
    if adapter == "gemini":
        event["usageMetadata"]["promptTokenCount"] = "fifty"
        expected = "usageMetadata.promptTokenCount"
    elif adapter == "openai-chat":
        event["created"] = "yesterday"
        expected = "created"
    elif adapter == "openai-responses":
        event["sequence_number"] = "last"
        expected = "sequence_number"
    else:
        event = {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": "many"}}
        expected = "usage.output_tokens"

    assert expected in [d.path for d in check(adapter, "event", event)]


def test_an_id_less_replayed_item_is_excused_under_store_false_only() -> None:
    reasoning = {"type": "reasoning", "summary": [], "encrypted_content": "gAAAAAxyz"}
    body = {"model": "m-1", "store": False, "input": [{"role": "user", "content": "hi"}, reasoning]}
    assert check("openai-responses", "request", body) == []

    stored = {**body, "store": True}  # a stored conversation replays items the API knows by id
    assert Discrepancy("input[1].id", "Field required [missing]") in check("openai-responses", "request", stored)


def test_every_documented_stricter_case_names_its_evidence() -> None:
    for rule in STRICTER_THAN_API:
        assert rule.adapter in ADAPTERS and rule.kind in {"request", "response", "event"}
        assert len(rule.evidence) > 80, rule
