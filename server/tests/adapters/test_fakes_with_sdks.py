"""The official SDKs, pointed at each fake upstream with ``base_url``, make a streamed and a non-streamed call.

The SDKs parse what the fakes send with their own models and stream decoders:
if a fake strayed from the real wire format (event names and order, field
names, the end of a stream, error bodies), these calls would fail or parse
the wrong thing. That is what makes the adapters' tests against the fakes mean
something for the real services.
"""

from __future__ import annotations

from collections.abc import Iterator

import anthropic
import openai
import pytest
from fakes import AnthropicFake, GeminiFake, OpenAIChatFake, OpenAIResponsesFake
from google import genai
from google.genai import errors as genai_errors
from google.genai import types as genai_types

KEY = "sk-sdk-test-key"
REPLY = "You said: Hello. Before that you said: nothing."
WEATHER = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
}


_CLIENTS: list[object] = []


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    """SDK clients hold connection pools; close each one a test made (unclosed sockets fail the run)."""
    yield
    while _CLIENTS:
        _CLIENTS.pop().close()  # type: ignore[attr-defined]


def _openai(base_url: str, key: str = KEY) -> openai.OpenAI:
    client = openai.OpenAI(base_url=base_url, api_key=key, max_retries=0)
    _CLIENTS.append(client)
    return client


def _anthropic(base_url: str) -> anthropic.Anthropic:
    client = anthropic.Anthropic(base_url=base_url, api_key=KEY, max_retries=0)
    _CLIENTS.append(client)
    return client


@pytest.fixture(scope="module")
def responses_fake() -> Iterator[OpenAIResponsesFake]:
    with OpenAIResponsesFake(api_key=KEY) as fake:
        yield fake


@pytest.fixture(scope="module")
def anthropic_fake() -> Iterator[AnthropicFake]:
    with AnthropicFake(api_key=KEY) as fake:
        yield fake


@pytest.fixture(scope="module")
def gemini_fake() -> Iterator[GeminiFake]:
    with GeminiFake(api_key=KEY) as fake:
        yield fake


@pytest.fixture(scope="module")
def chat_fake() -> Iterator[OpenAIChatFake]:
    with OpenAIChatFake(api_key=KEY) as fake:
        yield fake


# -- OpenAI Responses ------------------------------------------------------------------------


def test_openai_sdk_creates_a_response_and_parses_reasoning_text_and_usage(responses_fake) -> None:
    client = _openai(responses_fake.origin + "/v1")

    response = client.responses.create(
        model="gpt-5", input="Hello", store=False, include=["reasoning.encrypted_content"]
    )

    assert response.output_text == REPLY
    assert [item.type for item in response.output] == ["reasoning", "message"]
    assert response.output[0].encrypted_content
    assert (response.usage.input_tokens, response.usage.input_tokens_details.cached_tokens) == (50, 20)
    assert response.usage.output_tokens_details.reasoning_tokens == 5


def test_openai_sdk_streams_a_response_event_by_event(responses_fake) -> None:
    client = _openai(responses_fake.origin + "/v1")

    with client.responses.stream(model="gpt-5", input="Hello", store=False) as stream:
        deltas = [event.delta for event in stream if event.type == "response.output_text.delta"]
        final = stream.get_final_response()

    assert "".join(deltas) == REPLY
    assert final.output_text == REPLY


def test_openai_sdk_streams_a_function_call_and_replays_it(responses_fake) -> None:
    client = _openai(responses_fake.origin + "/v1")
    tools = [{"type": "function", "name": "get_weather", "parameters": WEATHER, "strict": False}]

    with client.responses.stream(
        model="gpt-5", input='call get_weather {"city": "Paris"}', tools=tools, store=False
    ) as stream:
        first = stream.get_final_response()
    call = first.output[1]
    replay = [item.model_dump(exclude_none=True, exclude={"id"}) for item in first.output]
    second = client.responses.create(
        model="gpt-5",
        input=[
            {"role": "user", "content": 'call get_weather {"city": "Paris"}'},
            *replay,
            {"type": "function_call_output", "call_id": call.call_id, "output": "21 C"},
        ],
        tools=tools,
        store=False,
    )

    assert (call.type, call.name, call.arguments) == ("function_call", "get_weather", '{"city": "Paris"}')
    assert second.output_text == "The function returned: 21 C"
    assert responses_fake.requests[-1].verified == 1


def test_openai_sdk_raises_its_own_errors_for_the_fakes_error_bodies(responses_fake) -> None:
    client = _openai(responses_fake.origin + "/v1")
    responses_fake.fail_next("rate_limit", retry_after=7)

    with pytest.raises(openai.RateLimitError) as caught:
        client.responses.create(model="gpt-5", input="Hello")

    assert caught.value.code == "rate_limit_exceeded"
    assert caught.value.response.headers["retry-after"] == "7"
    with pytest.raises(openai.AuthenticationError):
        _openai(responses_fake.origin + "/v1", "wrong").responses.create(model="gpt-5", input="Hello")


# -- Anthropic -----------------------------------------------------------------------------------


def test_anthropic_sdk_creates_a_message_with_a_signed_thinking_block(anthropic_fake) -> None:
    client = _anthropic(anthropic_fake.origin)

    message = client.messages.create(
        model="claude-sonnet-5",
        max_tokens=1024,
        thinking={"type": "enabled", "budget_tokens": 1024},
        messages=[{"role": "user", "content": "Hello"}],
    )

    assert [block.type for block in message.content] == ["thinking", "text"]
    assert message.content[0].signature
    assert message.content[1].text == REPLY
    assert (message.usage.input_tokens, message.usage.cache_read_input_tokens) == (30, 20)


def test_anthropic_sdk_streams_a_message_and_accumulates_it(anthropic_fake) -> None:
    client = _anthropic(anthropic_fake.origin)

    with client.messages.stream(
        model="claude-sonnet-5",
        max_tokens=1024,
        thinking={"type": "enabled", "budget_tokens": 1024},
        messages=[{"role": "user", "content": "Hello"}],
    ) as stream:
        text = "".join(stream.text_stream)
        final = stream.get_final_message()

    assert text == REPLY
    assert final.content[0].type == "thinking" and final.content[0].signature
    assert final.usage.output_tokens == 12


def test_anthropic_sdk_streams_a_tool_use_and_replays_the_signed_turn(anthropic_fake) -> None:
    client = _anthropic(anthropic_fake.origin)
    tools = [{"name": "get_weather", "description": "Weather", "input_schema": WEATHER}]
    ask = {"role": "user", "content": 'call get_weather {"city": "Paris"}'}
    thinking = {"type": "enabled", "budget_tokens": 1024}

    with client.messages.stream(
        model="claude-sonnet-5", max_tokens=1024, thinking=thinking, tools=tools, messages=[ask]
    ) as stream:
        first = stream.get_final_message()
    use = first.content[1]
    second = client.messages.create(
        model="claude-sonnet-5",
        max_tokens=1024,
        thinking=thinking,
        tools=tools,
        messages=[
            ask,
            {"role": "assistant", "content": [block.model_dump() for block in first.content]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "21 C"}]},
        ],
    )

    assert (use.type, use.name, use.input) == ("tool_use", "get_weather", {"city": "Paris"})
    assert second.content[1].text == "The function returned: 21 C"
    assert anthropic_fake.requests[-1].verified == 1


def test_anthropic_sdk_raises_its_own_errors_for_the_fakes_error_bodies(anthropic_fake) -> None:
    client = _anthropic(anthropic_fake.origin)
    anthropic_fake.fail_next("overloaded")

    with pytest.raises(anthropic.InternalServerError) as caught:
        client.messages.create(model="claude-sonnet-5", max_tokens=10, messages=[{"role": "user", "content": "x"}])

    assert caught.value.status_code == 529
    assert caught.value.body["error"]["type"] == "overloaded_error"
    anthropic_fake.fail_next("overloaded", where="stream")
    with (
        pytest.raises(anthropic.APIStatusError, match="Overloaded"),
        client.messages.stream(
            model="claude-sonnet-5", max_tokens=10, messages=[{"role": "user", "content": "x"}]
        ) as stream,
    ):
        stream.get_final_message()


# -- Gemini --------------------------------------------------------------------------------------


def _genai(fake: GeminiFake, key: str = KEY) -> genai.Client:
    client = genai.Client(api_key=key, http_options=genai_types.HttpOptions(base_url=fake.origin, api_version="v1beta"))
    _CLIENTS.append(client)
    return client


def test_google_genai_sdk_generates_content_with_a_thought_signature(gemini_fake) -> None:
    client = _genai(gemini_fake)
    response = client.models.generate_content(model="gemini-2.5-flash", contents="Hello")

    assert response.text == REPLY
    assert response.candidates[0].content.parts[0].thought_signature
    usage = response.usage_metadata
    assert (usage.prompt_token_count, usage.cached_content_token_count, usage.thoughts_token_count) == (50, 20, 5)


def test_google_genai_sdk_streams_chunks_and_the_signature_arrives_on_its_own_part(gemini_fake) -> None:
    client = _genai(gemini_fake)
    chunks = list(client.models.generate_content_stream(model="gemini-2.5-flash", contents="Hello"))

    assert "".join(chunk.text or "" for chunk in chunks) == REPLY
    assert chunks[-1].candidates[0].finish_reason == genai_types.FinishReason.STOP
    assert chunks[-1].candidates[0].content.parts[0].thought_signature


def test_google_genai_sdk_calls_a_function_and_replays_the_signed_part(gemini_fake) -> None:
    client = _genai(gemini_fake)
    config = genai_types.GenerateContentConfig(
        tools=[
            genai_types.Tool(
                function_declarations=[
                    genai_types.FunctionDeclaration(name="get_weather", parameters_json_schema=WEATHER)
                ]
            )
        ],
        automatic_function_calling=genai_types.AutomaticFunctionCallingConfig(disable=True),
    )
    ask = genai_types.Content(role="user", parts=[genai_types.Part(text='call get_weather {"city": "Paris"}')])

    first = client.models.generate_content(model="gemini-2.5-flash", contents=[ask], config=config)
    call = first.function_calls[0]
    answer = genai_types.Part.from_function_response(name="get_weather", response={"result": "21 C"})
    second = client.models.generate_content(
        model="gemini-2.5-flash",
        contents=[ask, first.candidates[0].content, genai_types.Content(role="user", parts=[answer])],
        config=config,
    )

    assert (call.name, call.args) == ("get_weather", {"city": "Paris"})
    assert second.text == "The function returned: 21 C"
    assert gemini_fake.requests[-1].verified == 1


def test_google_genai_sdk_raises_its_own_errors_for_the_fakes_error_bodies(gemini_fake) -> None:
    gemini_fake.fail_next("rate_limit", retry_after=9)

    client = _genai(gemini_fake)
    with pytest.raises(genai_errors.ClientError) as caught:
        client.models.generate_content(model="gemini-2.5-flash", contents="Hello")

    assert caught.value.code == 429 and caught.value.status == "RESOURCE_EXHAUSTED"
    assert {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "9s"} in caught.value.details["error"][
        "details"
    ]
    wrong = _genai(gemini_fake, "wrong")
    with pytest.raises(genai_errors.ClientError, match="API key not valid"):
        wrong.models.generate_content(model="gemini-2.5-flash", contents="Hello")


# -- OpenAI-compatible chat ----------------------------------------------------------------------


def test_openai_sdk_creates_a_chat_completion(chat_fake) -> None:
    client = _openai(chat_fake.base_url)

    completion = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "Hello"}])

    assert completion.choices[0].message.content == REPLY
    assert completion.usage.prompt_tokens_details.cached_tokens == 20


def test_openai_sdk_streams_a_chat_completion_to_done_with_usage(chat_fake) -> None:
    client = _openai(chat_fake.base_url)

    chunks = list(
        client.chat.completions.create(
            model="gpt-4o",
            messages=[{"role": "user", "content": "Hello"}],
            stream=True,
            stream_options={"include_usage": True},
        )
    )

    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == REPLY
    assert chunks[-1].usage.completion_tokens == 12


def test_openai_sdk_streams_chat_tool_calls_and_answers_them(chat_fake) -> None:
    client = _openai(chat_fake.base_url)
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": WEATHER}}]
    ask = {"role": "user", "content": 'call get_weather {"city": "Paris"}'}

    with client.chat.completions.stream(model="gpt-4o", messages=[ask], tools=tools) as stream:
        first = stream.get_final_completion()
    call = first.choices[0].message.tool_calls[0]
    second = client.chat.completions.create(
        model="gpt-4o",
        tools=tools,
        messages=[
            ask,
            # the assistant message as the request type has it: the streamed call's accumulated `index`
            # is a chunk field, not one of ChatCompletionMessageToolCallParam's (the authority checks)
            {
                "role": "assistant",
                "tool_calls": [
                    {
                        "id": call.id,
                        "type": "function",
                        "function": {"name": call.function.name, "arguments": call.function.arguments},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": call.id, "content": "21 C"},
        ],
    )

    assert (call.function.name, call.function.arguments) == ("get_weather", '{"city": "Paris"}')
    assert second.choices[0].message.content == "The function returned: 21 C"
