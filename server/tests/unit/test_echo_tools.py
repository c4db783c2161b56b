"""The echo provider's streaming and tool directives: ``!chunks N``, ``!call``/``!tool NAME JSON``.

The provider is driven directly (one ``turn`` per model step), the way the
turn lifecycle calls it: a step either answers or calls a function, and the
next step receives the answered exchange.
"""

from __future__ import annotations

import json
import re

import pytest

from agentic_driver import Driver, EchoProvider, ManualClock, SessionsConfig
from agentic_driver.errors import ProviderError
from agentic_driver.models import CreateSessionRequest, RunRequest, SessionHandle
from agentic_driver.providers import ModelRequest, ProviderFailure, VisibleMessage
from agentic_driver.providers.base import NativeItems, TextDelta, ToolCall, ToolExchange, ToolSpec, Usage, UsageReport
from agentic_driver.providers.echo import parse_directives

LOOKUP = ToolSpec("lookup", "Look things up.", {"type": "object"})


def echo() -> EchoProvider:
    return EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")


# -- parsing --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "chunks", "rest"),
    [
        pytest.param("!chunks 3\nhello", 3, "hello", id="chunks"),
        pytest.param("!chunks 0\nhello", 1, "!chunks 0\nhello", id="zero-is-text"),
        pytest.param("!chunks -2\nhello", 1, "!chunks -2\nhello", id="negative-is-text"),
        pytest.param("!chunks many\nhello", 1, "!chunks many\nhello", id="not-a-number-is-text"),
        pytest.param("!chunks\nhello", 1, "!chunks\nhello", id="no-argument-is-text"),
        pytest.param("!chunks 99999\nhello", 10_000, "hello", id="capped"),
        pytest.param("!sleep 5\n!chunks 2\nhello", 2, "hello", id="with-sleep"),
    ],
)
def test_the_chunks_directive_takes_a_positive_count(text: str, chunks: int, rest: str) -> None:
    found = parse_directives(text)

    assert (found.chunks, found.text) == (chunks, rest)


@pytest.mark.parametrize(
    ("text", "call", "rest"),
    [
        pytest.param('!call lookup {"city": "Oslo"}\nweather?', ("lookup", {"city": "Oslo"}), "weather?", id="call"),
        pytest.param('!tool clock {"zone": "UTC"}\ntime?', ("clock", {"zone": "UTC"}), "time?", id="tool"),
        pytest.param("!call lookup\nhi", ("lookup", {}), "hi", id="no-arguments"),
        pytest.param("!call lookup   \nhi", ("lookup", {}), "hi", id="trailing-spaces"),
        pytest.param('!call f {"a": "b c", "n": [1, 2]}', ("f", {"a": "b c", "n": [1, 2]}), "", id="spaces-in-json"),
        pytest.param('!call f {"x": 1}\n!sleep 5\nhi', ("f", {"x": 1}), "hi", id="then-more-directives"),
        pytest.param("!call lookup {not json\nhi", None, "!call lookup {not json\nhi", id="invalid-json-is-text"),
        pytest.param("!call lookup [1, 2]\nhi", None, "!call lookup [1, 2]\nhi", id="not-an-object-is-text"),
        pytest.param('!call lookup "x"\nhi', None, '!call lookup "x"\nhi', id="a-string-is-text"),
        pytest.param("!call\nhi", None, "!call\nhi", id="no-name-is-text"),
        pytest.param("!call f {}\n!call g {}\nhi", ("f", {}), "!call g {}\nhi", id="only-one-call"),
        pytest.param("hi\n!call f {}", None, "hi\n!call f {}", id="not-leading"),
    ],
)
def test_the_call_directive_names_a_function_and_a_json_object(
    text: str, call: tuple[str, dict[str, object]] | None, rest: str
) -> None:
    found = parse_directives(text)

    assert (found.call, found.text) == (call, rest)


def test_an_invalid_call_line_ends_the_directives_so_later_lines_are_text_too() -> None:
    found = parse_directives("!call f {oops\n!sleep 5\nhi")

    assert (found.call, found.sleep_ms, found.text) == (None, 0, "!call f {oops\n!sleep 5\nhi")


# -- chunks ----------------------------------------------------------------------------------


async def test_chunks_split_the_reply_into_near_equal_deltas_in_order() -> None:
    events = [e async for e in echo().turn(ModelRequest("echo-1", "!chunks 3\nhello"), native=False)]

    deltas = [e.text for e in events if isinstance(e, TextDelta)]
    assert deltas == ["echo", ": he", "llo"]  # "echo: hello": 11 characters as 4 + 4 + 3
    assert events[-1] == UsageReport(Usage(input_tokens=3, output_tokens=2), model="echo-1")


async def test_more_chunks_than_characters_gives_one_delta_per_character() -> None:
    events = [e async for e in echo().turn(ModelRequest("echo-1", "!chunks 50\nhi"), native=False)]

    deltas = [e.text for e in events if isinstance(e, TextDelta)]
    assert deltas == list("echo: hi")


async def test_chunks_apply_to_the_reply_after_a_tool_exchange_and_to_recall() -> None:
    exchange = (ToolExchange("call_1", "lookup", {}, "42"),)
    request = ModelRequest("echo-1", "!call lookup\n!chunks 2\nq", tools=(LOOKUP,), exchange=exchange)

    deltas = [e.text for e in [e async for e in echo().turn(request, native=False)] if isinstance(e, TextDelta)]
    assert "".join(deltas) == "echo: q | lookup -> 42"
    assert len(deltas) == 2

    recall = ModelRequest("echo-1", "!recall\n!chunks 4", messages=[VisibleMessage("user", "a")])
    deltas = [e.text for e in [e async for e in echo().turn(recall, native=False)] if isinstance(e, TextDelta)]
    assert "".join(deltas) == "recall: 1 messages; last user: a"
    assert len(deltas) == 4


# -- calls ------------------------------------------------------------------------------------


async def test_a_call_step_yields_the_tool_call_and_its_usage_but_no_text() -> None:
    request = ModelRequest("echo-1", '!call lookup {"q": "x"}\nwhat', tools=(LOOKUP,))

    events = [e async for e in echo().turn(request, native=False)]

    call, usage = events
    assert isinstance(call, ToolCall)
    assert (call.name, call.arguments) == ("lookup", {"q": "x"})
    assert re.fullmatch(r"call_[0-9a-f]{16}", call.call_id)
    assert usage == UsageReport(
        Usage(input_tokens=5, output_tokens=0), model="echo-1"
    )  # every word sent, directives too


async def test_the_call_id_is_stable_for_the_same_input_and_name() -> None:
    request = ModelRequest("echo-1", "!call lookup\nwhat", tools=(LOOKUP,))
    other = ModelRequest("echo-1", "!call lookup\nsomething else", tools=(LOOKUP,))

    first, _ = [e async for e in echo().turn(request, native=False)]
    again, _ = [e async for e in echo().turn(request, native=False)]
    different, _ = [e async for e in echo().turn(other, native=False)]

    assert first.call_id == again.call_id
    assert different.call_id != first.call_id


async def test_calling_a_function_the_request_does_not_offer_is_a_provider_failure() -> None:
    request = ModelRequest("echo-1", "!call missing {}\nwhat", tools=(LOOKUP,))

    with pytest.raises(ProviderFailure, match="the model called 'missing', which the run does not offer"):
        [e async for e in echo().turn(request, native=False)]


async def test_once_answered_the_reply_names_each_exchange_and_counts_its_output_as_sent() -> None:
    exchange = (
        ToolExchange("call_1", "lookup", {"q": "x"}, "forty two"),
        ToolExchange("call_2", "clock", {}, "noon"),
    )
    request = ModelRequest("echo-1", "!call lookup\nwhat", tools=(LOOKUP,), exchange=exchange)

    events = [e async for e in echo().turn(request, native=False)]

    reply = "echo: what | lookup -> forty two | clock -> noon"
    assert events == [
        TextDelta(reply),
        UsageReport(Usage(input_tokens=3 + 3, output_tokens=len(reply.split())), model="echo-1"),
    ]


async def test_fail_wins_over_a_call() -> None:
    with pytest.raises(ProviderFailure, match="injected failure"):
        [e async for e in echo().turn(ModelRequest("echo-1", "!fail\n!call lookup", tools=(LOOKUP,)), native=False)]


async def test_an_invalid_call_line_is_echoed_as_plain_text_without_any_call() -> None:
    events = [e async for e in echo().turn(ModelRequest("echo-1", "!call lookup {oops", tools=(LOOKUP,)), native=False)]

    assert events[0] == TextDelta("echo: !call lookup {oops")
    assert not any(isinstance(e, ToolCall) for e in events)


# -- native items with exchanges -----------------------------------------------------------------


async def test_a_native_turn_with_an_exchange_keeps_the_call_and_its_output_as_signed_items() -> None:
    provider = echo()
    exchange = (ToolExchange("call_1", "lookup", {"q": "x"}, "42"),)
    request = ModelRequest("echo-1", "!call lookup\nwhat", tools=(LOOKUP,), exchange=exchange)

    events = [e async for e in provider.turn(request, native=True)]

    items = next(e for e in events if isinstance(e, NativeItems)).items
    bodies = [json.loads(item) for item in items]
    assert [b["type"] for b in bodies] == ["message", "reasoning", "function_call", "function_call_output", "message"]
    assert {k: bodies[2][k] for k in ("call_id", "name", "arguments")} == {
        "call_id": "call_1",
        "name": "lookup",
        "arguments": {"q": "x"},
    }
    assert {k: bodies[3][k] for k in ("call_id", "output")} == {"call_id": "call_1", "output": "42"}
    assert bodies[4]["content"] == "echo: what | lookup -> 42"

    recall = [e async for e in provider.turn(ModelRequest("echo-1", "!recall", native=items), native=True)]
    assert recall[0] == TextDelta("recall: 2 messages; last user: !call lookup\nwhat; tool exchanges: 1")


async def test_native_recall_without_kept_exchanges_has_no_exchange_count() -> None:
    provider = echo()
    first = [e async for e in provider.turn(ModelRequest("echo-1", "hello"), native=True)]
    items = first[1].items

    recall = [e async for e in provider.turn(ModelRequest("echo-1", "!recall", native=items), native=True)]

    assert recall[0] == TextDelta("recall: 2 messages; last user: hello")


async def test_history_mode_recall_never_counts_exchanges() -> None:
    request = ModelRequest(
        "echo-1", "!recall", messages=[VisibleMessage("user", "q"), VisibleMessage("assistant", "a")]
    )

    events = [e async for e in echo().turn(request, native=False)]

    assert events[0] == TextDelta("recall: 2 messages; last user: q")


async def test_a_modified_function_call_item_is_refused_on_the_next_native_turn() -> None:
    provider = echo()
    exchange = (ToolExchange("call_1", "lookup", {}, "42"),)
    request = ModelRequest("echo-1", "!call lookup\nwhat", tools=(LOOKUP,), exchange=exchange)
    items = list(
        next(e for e in [e async for e in provider.turn(request, native=True)] if isinstance(e, NativeItems)).items
    )
    items[2] = items[2].replace('"lookup"', '"lookuP"')  # the model's own (signed) call

    with pytest.raises(ProviderFailure, match="native item 2 was modified"):
        [e async for e in provider.turn(ModelRequest("echo-1", "!recall", native=items), native=True)]


# -- through the driver -------------------------------------------------------------------------


async def test_a_session_run_calling_an_undeclared_function_fails_with_a_provider_error() -> None:
    driver = Driver([echo()], sessions=SessionsConfig(retentionMs=60_000), clock=ManualClock())
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="native"))
    ).session

    with pytest.raises(ProviderError, match="'lookup', which the run does not offer") as caught:
        await driver.run(
            RunRequest(
                provider="echo",
                model="echo-1",
                input="!call lookup\nx",
                session=SessionHandle(id=session.id, revision=0),
            )
        )

    assert caught.value.status == 502
    read = await driver.read_session(session.id)
    assert read.session.status == "interrupted"
    assert read.interruptedTurn.reason == "failed"


async def test_a_streamed_run_delivers_one_delta_per_chunk() -> None:
    driver = Driver([echo()], clock=ManualClock())

    events = [
        e async for e in await driver.stream_run(RunRequest(provider="echo", model="echo-1", input="!chunks 5\nabc"))
    ]

    deltas = [e.text for e in events if e.type == "output.delta"]
    assert len(deltas) == 5
    assert "".join(deltas) == "echo: abc"
    assert events[-1].run.output.text == "echo: abc"
