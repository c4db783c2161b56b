"""The offline echo provider: directives, replies, usage, and signed native items kept byte for byte."""

from __future__ import annotations

import json

import pytest

from agentic_driver import Driver, EchoProvider, ManualClock, SessionsConfig
from agentic_driver.config import parse_config
from agentic_driver.errors import ProviderError, SessionInterrupted
from agentic_driver.models import CreateSessionRequest, Message, RunRequest, SessionHandle
from agentic_driver.providers import ModelRequest, ProviderFailure, VisibleMessage
from agentic_driver.providers.base import NativeItems, TextDelta, Usage, UsageReport
from agentic_driver.providers.echo import parse_directives


@pytest.mark.parametrize(
    ("text", "sleep_ms", "fail", "recall", "rest"),
    [
        pytest.param("hello", 0, False, False, "hello", id="plain"),
        pytest.param("!sleep 250\nhello", 250, False, False, "hello", id="sleep"),
        pytest.param("!sleep 5\n!sleep 7\nhi", 12, False, False, "hi", id="sleeps-add-up"),
        pytest.param("!fail\n!recall\nbody\n!fail", 0, True, True, "body\n!fail", id="only-leading-lines"),
        pytest.param("  !recall  \nhi", 0, False, True, "hi", id="surrounding-spaces"),
        pytest.param("!sleep 10", 10, False, False, "", id="directive-only"),
        pytest.param("!sleep soon\nhi", 0, False, False, "!sleep soon\nhi", id="sleep-without-number"),
        pytest.param("!sleep\nhi", 0, False, False, "!sleep\nhi", id="sleep-without-argument"),
        pytest.param("!fail now\nhi", 0, False, False, "!fail now\nhi", id="fail-with-argument"),
        pytest.param("hi\n!fail", 0, False, False, "hi\n!fail", id="not-leading"),
    ],
)
def test_parse_directives_splits_leading_directive_lines_from_the_text(
    text: str, sleep_ms: int, fail: bool, recall: bool, rest: str
) -> None:
    found = parse_directives(text)

    assert (found.sleep_ms, found.fail, found.recall, found.text) == (sleep_ms, fail, recall, rest)


async def test_the_reply_echoes_the_input_and_usage_counts_words_sent_and_written() -> None:
    provider = EchoProvider(id="echo", models=("echo-1",), account_id=None)
    request = ModelRequest(
        model="echo-1",
        input="what is my name",
        instructions="Answer very briefly",
        messages=[VisibleMessage("user", "my name is Ada"), VisibleMessage("assistant", "hello Ada")],
    )

    events = [event async for event in provider.turn(request, native=False)]

    # input: 3 instruction words + 4 + 2 earlier message words + 4 input words; output: "echo: what is my name"
    assert events == [
        TextDelta("echo: what is my name"),
        UsageReport(Usage(input_tokens=13, output_tokens=5), model="echo-1"),
    ]


async def test_directive_lines_are_counted_as_sent_but_not_echoed() -> None:
    provider = EchoProvider(id="echo", models=("echo-1",), account_id=None)

    events = [
        event async for event in provider.turn(ModelRequest(model="echo-1", input="!sleep 0\nhi there"), native=False)
    ]

    assert events == [TextDelta("echo: hi there"), UsageReport(Usage(input_tokens=4, output_tokens=3), model="echo-1")]


async def test_recall_counts_the_earlier_messages_and_names_the_last_user_message() -> None:
    provider = EchoProvider(id="echo", models=("echo-1",), account_id=None)
    earlier = [
        VisibleMessage("user", "first"),
        VisibleMessage("assistant", "echo: first"),
        VisibleMessage("user", "second one"),
        VisibleMessage("assistant", "echo: second one"),
    ]

    events = [event async for event in provider.turn(ModelRequest("echo-1", "!recall", messages=earlier), native=False)]

    assert events[0] == TextDelta("recall: 4 messages; last user: second one")
    # input: 1 + 2 + 2 + 3 earlier message words + 1 input word ("!recall")
    assert events[1] == UsageReport(Usage(input_tokens=9, output_tokens=7), model="echo-1")


async def test_recall_without_earlier_messages_says_none() -> None:
    provider = EchoProvider(id="echo", models=("echo-1",), account_id=None)

    events = [event async for event in provider.turn(ModelRequest("echo-1", "!recall"), native=False)]

    assert events[0] == TextDelta("recall: 0 messages; last user: (none)")


async def test_fail_raises_a_provider_failure_before_any_reply() -> None:
    provider = EchoProvider(id="echo", models=("echo-1",), account_id=None)
    events = []

    with pytest.raises(ProviderFailure, match=r"injected failure \(!fail\)"):
        async for event in provider.turn(ModelRequest("echo-1", "!fail\nhello"), native=False):
            events.append(event)

    assert events == []


async def test_a_native_turn_yields_three_items_the_models_own_signed_that_a_later_turn_replays() -> None:
    provider = EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")

    first = [event async for event in provider.turn(ModelRequest("echo-1", "hello"), native=True)]
    items = first[1].items
    later = [event async for event in provider.turn(ModelRequest("echo-1", "!recall", native=items), native=True)]

    assert first[0] == TextDelta("echo: hello")
    assert isinstance(first[1], NativeItems)
    bodies = [json.loads(item) for item in items]
    assert [(b["type"], b.get("role")) for b in bodies] == [
        ("message", "user"),
        ("reasoning", None),
        ("message", "assistant"),
    ]
    assert bodies[0]["content"] == "hello"
    assert bodies[1]["summary"] == "considered 0 earlier messages"
    assert bodies[2]["content"] == "echo: hello"
    assert "signature" not in bodies[0]  # the user's message is the application's, not the model's
    assert all(len(b["signature"]) == 64 for b in bodies[1:])
    assert later[0] == TextDelta("recall: 2 messages; last user: hello")


async def test_native_items_from_another_instance_do_not_verify() -> None:
    signer = EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")
    verifier = EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")
    items = [event async for event in signer.turn(ModelRequest("echo-1", "hello"), native=True)][1].items

    with pytest.raises(ProviderFailure, match="native item 1 was modified"):  # item 0 is the unsigned user message
        [event async for event in verifier.turn(ModelRequest("echo-1", "again", native=items), native=True)]


@pytest.mark.parametrize("raw", ["not json", "[1, 2]", '{"type": "message"}', '"text"'])
async def test_a_native_item_the_provider_never_produced_is_refused(raw: str) -> None:
    provider = EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")

    with pytest.raises(ProviderFailure, match="native item 0 is not an item this provider produced"):
        [event async for event in provider.turn(ModelRequest("echo-1", "again", native=[raw]), native=True)]


def test_from_config_reads_models_account_and_settings() -> None:
    config = parse_config(
        {
            "providers": [
                {
                    "id": "plain",
                    "kind": "echo",
                    "accountId": "acct-9",
                    "models": ["m1", "m2"],
                    "settings": {"native": False, "latencyMs": 15},
                }
            ]
        }
    )

    provider = EchoProvider.from_config(config.providers[0])

    assert (provider.id, provider.kind, provider.models, provider.account_id) == (
        "plain",
        "echo",
        ("m1", "m2"),
        "acct-9",
    )
    assert provider.latency_ms == 15
    assert provider.capabilities.history_continuation is True
    assert provider.capabilities.native_continuation is False
    assert "_secret" not in repr(provider)


async def test_a_session_turn_fails_when_a_stored_native_item_was_modified() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="native"))
    ).session
    await driver.run(
        RunRequest(provider="echo", model="echo-1", input="hello", session=SessionHandle(id=session.id, revision=0))
    )
    record = driver.store.get(session.id)
    original = record.native[1]
    tampered = original.replace("considered 0", "considered 9")
    assert tampered != original and len(tampered) == len(original)
    record.native[1] = tampered

    with pytest.raises(ProviderError) as caught:
        await driver.run(
            RunRequest(provider="echo", model="echo-1", input="again", session=SessionHandle(id=session.id, revision=1))
        )

    assert "native item 1 was modified" in caught.value.detail
    assert "signature does not verify" in caught.value.detail
    read = await driver.read_session(session.id)
    assert read.session.status == "interrupted"
    assert read.interruptedTurn.reason == "failed"
    assert read.history == [Message(role="user", content="hello"), Message(role="assistant", content="echo: hello")]
    assert len(record.native) == 3
    with pytest.raises(SessionInterrupted):
        await driver.run(
            RunRequest(provider="echo", model="echo-1", input="again", session=SessionHandle(id=session.id, revision=1))
        )


async def test_a_native_item_reserialised_with_other_whitespace_is_refused_because_bytes_must_match() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="native"))
    ).session
    await driver.run(
        RunRequest(provider="echo", model="echo-1", input="hello", session=SessionHandle(id=session.id, revision=0))
    )
    record = driver.store.get(session.id)
    original = record.native[2]
    reserialised = json.dumps(json.loads(original), sort_keys=True, separators=(", ", ": "), ensure_ascii=False)
    assert json.loads(reserialised) == json.loads(original) and reserialised != original
    record.native[2] = reserialised

    with pytest.raises(ProviderError, match="native item 2 was modified"):
        await driver.run(
            RunRequest(provider="echo", model="echo-1", input="again", session=SessionHandle(id=session.id, revision=1))
        )


async def test_untouched_native_items_keep_a_session_going_turn_after_turn() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="native"))
    ).session

    for revision, text in enumerate(["one", "two", "three"]):
        result = await driver.run(
            RunRequest(
                provider="echo", model="echo-1", input=text, session=SessionHandle(id=session.id, revision=revision)
            )
        )
        assert result.output.text == f"echo: {text}"
    recalled = await driver.run(
        RunRequest(provider="echo", model="echo-1", input="!recall", session=SessionHandle(id=session.id, revision=3))
    )

    assert recalled.output.text == "recall: 6 messages; last user: three"
    assert len(driver.store.get(session.id).native) == 12
