"""What the adapter audit found (issue 19), each pinned: wire shapes, usage, config bounds, stream assembly."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from agentic_driver.config import ConfigError, parse_config
from agentic_driver.providers import anthropic as anthropic_wire
from agentic_driver.providers import build_provider
from agentic_driver.providers import gemini as gemini_wire
from agentic_driver.providers import openai_chat as chat_wire
from agentic_driver.providers import openai_responses as responses_wire
from agentic_driver.providers.base import ModelRequest, NativeItems, TextDelta, ToolSpec
from agentic_driver.providers.openai_chat import OpenAIChatProvider
from agentic_driver.providers.upstream import ServerSentEvent
from agentic_driver.providers.wire import load_item


def _provider(entry: dict[str, Any]) -> Any:
    config = parse_config({"providers": [{"id": "p", "models": ["m"], **entry}]})
    return build_provider(config.providers[0], "providers[0]", env={})


def _problems(entry: dict[str, Any]) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        parse_config({"providers": [{"id": "p", "models": ["m"], **entry}]})
    return caught.value.problems


# -- Gemini ---------------------------------------------------------------------------------


def test_gemini_v1_is_refused_at_startup_naming_the_field_and_why() -> None:
    (problem,) = _problems({"kind": "gemini", "apiVersion": "v1"})

    assert problem.startswith("providers[0].apiVersion: 'v1' is not supported: ")
    assert "systemInstruction" in problem and "use 'v1beta'" in problem


def test_gemini_v1beta_stays_the_default_and_is_accepted() -> None:
    assert _provider({"kind": "gemini"}).api_version == "v1beta"
    assert _provider({"kind": "gemini", "apiVersion": "v1beta"}).api_version == "v1beta"


def test_gemini_sends_every_declaration_with_the_description_its_rest_reference_requires() -> None:
    tools = (ToolSpec("bare", "", {"type": "object"}), ToolSpec("told", "Says hi.", {"type": "object"}))

    body, _ = gemini_wire.map_request(ModelRequest("m", "hi", tools=tools), {})

    assert body["tools"] == [
        {
            "functionDeclarations": [
                {"name": "bare", "description": "", "parametersJsonSchema": {"type": "object"}},
                {"name": "told", "description": "Says hi.", "parametersJsonSchema": {"type": "object"}},
            ]
        }
    ]


# -- OpenAI-compatible chat: the token-limit field --------------------------------------------


def test_chat_sends_max_completion_tokens_by_default_as_openai_requires() -> None:
    provider = _provider({"kind": "openai-chat", "maxOutputTokens": 64})

    assert isinstance(provider, OpenAIChatProvider)
    body, _ = chat_wire.map_request(ModelRequest("m", "hi"), provider.options, stream=False)
    assert body["max_completion_tokens"] == 64 and "max_tokens" not in body


def test_chat_sends_max_tokens_when_the_instance_says_so_for_llama_cpp_vllm_ollama() -> None:
    provider = _provider({"kind": "openai-chat", "maxOutputTokens": 64, "maxOutputTokensField": "max_tokens"})

    body, _ = chat_wire.map_request(ModelRequest("m", "hi"), provider.options, stream=False)
    assert body["max_tokens"] == 64 and "max_completion_tokens" not in body


def test_chat_refuses_an_unknown_token_limit_field() -> None:
    (problem,) = _problems({"kind": "openai-chat", "maxOutputTokensField": "max_output_tokens"})

    assert problem.startswith("providers[0].maxOutputTokensField: ")


# -- config bounds per kind -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "path"),
    [
        ({"kind": "openai-responses", "maxOutputTokens": 15}, "maxOutputTokens"),  # the API's minimum is 16
        ({"kind": "openai-responses", "temperature": 2.5}, "temperature"),
        ({"kind": "anthropic", "temperature": 1.5}, "temperature"),  # Messages takes 0..1
        ({"kind": "gemini", "temperature": 2.5}, "temperature"),
    ],
)
def test_values_a_provider_refuses_are_refused_at_startup(entry: dict[str, Any], path: str) -> None:
    (problem,) = _problems(entry)

    assert problem.startswith(f"providers[0].{path}: ")


@pytest.mark.parametrize(
    "entry",
    [
        {"kind": "openai-responses", "maxOutputTokens": 16, "temperature": 2},
        {"kind": "anthropic", "maxOutputTokens": 1, "temperature": 1},
        {"kind": "gemini", "maxOutputTokens": 1, "temperature": 2},
        {"kind": "openai-chat", "maxOutputTokens": 1, "temperature": 3},  # local servers set their own bounds
    ],
)
def test_the_bounds_themselves_are_accepted(entry: dict[str, Any]) -> None:
    assert _provider(entry).id == "p"


# -- usage ------------------------------------------------------------------------------------


def test_openai_responses_counts_cache_writes() -> None:
    usage = responses_wire._usage(
        {
            "input_tokens": 100,
            "input_tokens_details": {"cached_tokens": 20, "cache_write_tokens": 30},
            "output_tokens": 10,
            "output_tokens_details": {"reasoning_tokens": 4},
        }
    )

    assert (usage.input_tokens, usage.cached_input_tokens, usage.cache_write_tokens) == (100, 20, 30)
    assert (usage.output_tokens, usage.reasoning_tokens) == (10, 4)


# -- Anthropic stream assembly -------------------------------------------------------------------


async def _stream(*events: dict[str, Any]) -> AsyncIterator[ServerSentEvent]:
    for event in events:
        yield ServerSentEvent(event["type"], json.dumps(event))


async def test_a_citation_for_a_text_block_that_started_with_null_citations_is_kept() -> None:
    citation = {"type": "char_location", "cited_text": "sky", "document_index": 0, "start_char_index": 0}
    events = _stream(
        {"type": "message_start", "message": {"usage": {"input_tokens": 3}}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": "", "citations": None}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "citations_delta", "citation": citation}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Blue."}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "usage": {"output_tokens": 2}},
        {"type": "message_stop"},
    )

    seen = [event async for event in anthropic_wire.process_stream(events, [])]

    assert seen[0] == TextDelta("Blue.")
    (native,) = [event for event in seen if isinstance(event, NativeItems)]
    assert load_item(native.items[-1])["content"] == [{"type": "text", "text": "Blue.", "citations": [citation]}]
