"""Native history filters: chosen at createSession (native mode only), applied when a turn is stored.

Sessions with each filter run the same conversation on the same echo instance (one HMAC secret), so the items
a filter keeps can be compared byte for byte with a ``full`` session's. What is stored is what is replayed (the
next turn verifies it, ``!recall`` still sees the exchange) and what counts against the bounds.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from agentic_driver import Driver, EchoProvider, ManualClock, SessionsConfig
from agentic_driver.errors import SessionLimitExceeded, UnsupportedContinuation, ValidationFailed
from agentic_driver.models import (
    CreateSessionRequest,
    FunctionResult,
    RunRequest,
    SessionHandle,
    SessionInfo,
    SubmitRunActionsRequest,
    ToolDefinition,
)
from agentic_driver.providers.base import (
    Capabilities,
    ModelRequest,
    NativeFiltering,
    NativeItems,
    TextDelta,
    TurnEvent,
)
from agentic_driver.providers.echo import TOOL_RESULT_PLACEHOLDER

LOOKUP = ToolDefinition(name="lookup", description="Look it up.", parameters={"type": "object"})
LONG_RESULT = "Tea is an aromatic beverage prepared by pouring hot water over cured leaves."
MAX_CHARS = 10
FILTERS = ("full", "no_reasoning", "no_tool_results", "compact_tool_results")


@dataclass
class NarrowProvider:
    """A native-capable stub that supports only ``full`` and ``no_reasoning``."""

    id: str = "narrow"
    models: tuple[str, ...] = ("echo-1",)
    account_id: str | None = "acct-1"
    kind: str = "narrow"

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(
            history_continuation=True,
            native_continuation=True,
            streaming=True,
            application_functions=False,
            native_filters=("full", "no_reasoning"),
        )

    async def turn(self, request: ModelRequest, *, native: bool) -> AsyncGenerator[TurnEvent, None]:
        yield TextDelta("ok")
        if native:
            yield NativeItems(('{"type":"message"}',))

    def filter_native(self, items: Sequence[str], mode: str, max_chars: int) -> tuple[str, ...]:
        return tuple(items)  # it keeps no reasoning items, so no_reasoning keeps everything


@dataclass
class Recording:
    """Echo, recording every request it is sent (the native items replayed to it among them)."""

    inner: EchoProvider
    requests: list[ModelRequest] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.id, self.models, self.account_id, self.kind = "echo", ("echo-1",), "acct-1", "echo"

    @property
    def capabilities(self) -> Capabilities:
        return self.inner.capabilities

    def turn(self, request: ModelRequest, *, native: bool) -> AsyncGenerator[TurnEvent, None]:
        # the request refers to the session's live native list: keep what it held when the call was made
        self.requests.append(replace(request, native=None if request.native is None else tuple(request.native)))
        return self.inner.turn(request, native=native)

    def filter_native(self, items: Sequence[str], mode: str, max_chars: int) -> tuple[str, ...]:
        return self.inner.filter_native(items, mode, max_chars)


def echo() -> EchoProvider:
    return EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")


def make_driver(provider: Any = None, **sessions: Any) -> Driver:
    options = {"retentionMs": 60_000, "compactToolResultsMaxChars": MAX_CHARS, **sessions}
    return Driver([provider or echo()], sessions=SessionsConfig(**options), clock=ManualClock())


def session_run(session: SessionInfo, text: str, **extra: Any) -> RunRequest:
    handle = SessionHandle(id=session.id, revision=session.revision)
    return RunRequest(provider=session.provider, model=session.model, input=text, session=handle, **extra)


async def create(
    driver: Driver, native_history: str | None, mode: str = "native", provider: str = "echo"
) -> SessionInfo:
    extra = {} if native_history is None else {"nativeHistory": native_history}
    request = CreateSessionRequest(provider=provider, model="echo-1", mode=mode, **extra)
    return (await driver.create_session(request)).session


async def converse(driver: Driver, native_history: str) -> tuple[SessionInfo, list[str]]:
    """A plain turn, then a turn with one tool exchange; returns the session and its stored native items."""
    info = await create(driver, native_history)
    info = (await driver.run(session_run(info, "I like tea."))).session
    paused = await driver.run(session_run(info, "!call lookup {}\nWhat is tea?", tools=[LOOKUP]))
    answer = FunctionResult(callId=paused.requiredAction.calls[0].callId, output=LONG_RESULT)
    info = (await driver.submit_run_actions(paused.id, SubmitRunActionsRequest(functionResults=[answer]))).session
    return info, list(driver.store.get(info.id).native)


def kinds(items: list[str]) -> list[str]:
    return [json.loads(item)["type"] for item in items]


# -- what each filter keeps -------------------------------------------------------------------------------


async def test_each_filter_keeps_exactly_what_it_promises_compared_with_a_full_session() -> None:
    driver = make_driver()
    stored = {name: await converse(driver, name) for name in FILTERS}
    full_info, full = stored["full"]
    first_turn = ["message", "reasoning", "message"]
    second_turn = ["message", "reasoning", "function_call", "function_call_output", "message"]
    assert kinds(full) == [*first_turn, *second_turn]
    assert full_info.nativeHistory == "full"

    # no_reasoning: reasoning items dropped whole; every other item byte-identical
    info, kept = stored["no_reasoning"]
    assert info.nativeHistory == "no_reasoning"
    assert kept == [item for item in full if json.loads(item)["type"] != "reasoning"]

    # no_tool_results: the result's content replaced by the placeholder; call and result still paired
    info, kept = stored["no_tool_results"]
    assert kinds(kept) == kinds(full)
    for original, item in zip(full, kept, strict=True):
        body = json.loads(original)
        if body["type"] == "function_call_output":
            assert json.loads(item) == {**body, "output": TOOL_RESULT_PLACEHOLDER}
        else:
            assert item == original  # signed items are never edited
    call, result = json.loads(kept[5]), json.loads(kept[6])
    assert call["call_id"] == result["call_id"]

    # compact_tool_results: the result cut to compactToolResultsMaxChars, the ellipsis within the cap
    info, kept = stored["compact_tool_results"]
    for original, item in zip(full, kept, strict=True):
        body = json.loads(original)
        if body["type"] == "function_call_output":
            assert json.loads(item)["output"] == LONG_RESULT[: MAX_CHARS - 1] + "…"
            assert len(json.loads(item)["output"]) == MAX_CHARS
        else:
            assert item == original

    # the visible history is the same whatever the filter
    histories = [(await driver.read_session(info.id)).history for info, _ in stored.values()]
    assert all(history == histories[0] for history in histories)


@pytest.mark.parametrize("name", FILTERS)
async def test_the_filtered_history_is_what_is_replayed_and_the_next_turns_verify(name: str) -> None:
    recording = Recording(echo())
    driver = make_driver(recording)
    info, stored = await converse(driver, name)

    recall = await driver.run(session_run(info, "!recall"))

    assert list(recording.requests[-1].native) == stored  # exactly the filtered items, nothing else
    assert ("reasoning" in kinds(stored)) is (name != "no_reasoning")
    again = await driver.run(session_run(recall.session, "!recall"))

    assert recall.output.text == "recall: 4 messages; last user: !call lookup {}\nWhat is tea?; tool exchanges: 1"
    assert again.output.text.startswith("recall: 6 messages; last user: !recall")
    assert again.session.revision == 4


async def test_filters_shrink_record_bytes_and_the_filtered_size_is_what_the_record_counts() -> None:
    driver = make_driver()
    sizes = {}
    for name in FILTERS:
        info, native = await converse(driver, name)
        record = driver.store.get(info.id)
        visible = record.record_bytes - sum(len(item.encode()) for item in native)
        sizes[name] = (info.recordBytes, visible)

    assert len({visible for _, visible in sizes.values()}) == 1  # only native state differs
    assert sizes["no_reasoning"][0] < sizes["full"][0]
    assert sizes["no_tool_results"][0] < sizes["full"][0]
    assert sizes["compact_tool_results"][0] < sizes["full"][0]
    cut = len(LONG_RESULT.encode()) - len((LONG_RESULT[: MAX_CHARS - 1] + "…").encode())  # bytes, not characters
    assert sizes["full"][0] - sizes["compact_tool_results"][0] == cut


async def test_a_filter_is_applied_before_the_bounds_so_a_smaller_history_fits_where_a_full_one_does_not() -> None:
    driver = make_driver(maxNativeMessages=4)  # a plain echo turn stores 3 items, 2 without reasoning
    full = await create(driver, "full")
    trimmed = await create(driver, "no_reasoning")

    full = (await driver.run(session_run(full, "one"))).session
    with pytest.raises(SessionLimitExceeded) as caught:
        await driver.run(session_run(full, "two"))
    assert caught.value.limit == "maxNativeMessages"

    trimmed = (await driver.run(session_run(trimmed, "one"))).session
    trimmed = (await driver.run(session_run(trimmed, "two"))).session
    assert trimmed.revision == 2
    assert len(driver.store.get(trimmed.id).native) == 4


# -- filter_native directly -------------------------------------------------------------------------------


def _canonical(body: dict[str, Any]) -> str:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


async def test_compact_tool_results_cuts_a_list_of_text_blocks_in_order_and_the_result_still_verifies() -> None:
    provider = echo()
    assert isinstance(provider, NativeFiltering)
    call = provider._sign({"type": "function_call", "call_id": "call_1", "name": "lookup", "arguments": {}})
    blocks = [
        {"type": "text", "text": "abcdefgh"},
        {"type": "image", "url": "https://example.invalid/cup.png"},
        {"type": "text", "text": "ijklmnop"},
        {"type": "text", "text": "qrstuvwx"},
    ]
    output = _canonical({"type": "function_call_output", "call_id": "call_1", "output": blocks})

    kept = provider.filter_native([call, output], "compact_tool_results", 10)

    assert kept[0] == call
    assert json.loads(kept[1])["output"] == [
        {"type": "text", "text": "abcdefgh"},  # 8 of the 10 characters
        {"type": "image", "url": "https://example.invalid/cup.png"},  # not text: kept as it is
        {"type": "text", "text": "i…"},  # the 2 left, the ellipsis among them
        # nothing left: the last text block is dropped (an empty text block is invalid on Anthropic)
    ]
    assert json.loads(kept[1])["call_id"] == "call_1"
    # the filtered items replay: the call's signature holds and the result is canonical
    events = [e async for e in provider.turn(ModelRequest("echo-1", "!recall", native=kept), native=True)]
    assert events[0] == TextDelta("recall: 0 messages; last user: (none); tool exchanges: 1")


def test_compact_tool_results_keeps_short_results_byte_identical_and_cuts_long_strings() -> None:
    provider = echo()
    short = _canonical({"type": "function_call_output", "call_id": "c", "output": "0123456789"})
    long = _canonical({"type": "function_call_output", "call_id": "c", "output": "0123456789A"})
    other = _canonical({"type": "function_call_output", "call_id": "c", "output": {"n": 1}})

    kept = provider.filter_native([short, long, other], "compact_tool_results", 10)

    assert kept[0] == short
    assert json.loads(kept[1])["output"] == "012345678…"  # 10 characters: the cap holds the ellipsis too
    assert kept[2] == other  # neither a string nor a list of blocks: kept as it is


def test_no_reasoning_and_no_tool_results_never_edit_signed_items_and_full_changes_nothing() -> None:
    provider = echo()
    items = (
        _canonical({"type": "message", "role": "user", "content": "hi"}),
        provider._sign({"type": "reasoning", "summary": "thinking"}),
        provider._sign({"type": "function_call", "call_id": "c", "name": "f", "arguments": {}}),
        _canonical({"type": "function_call_output", "call_id": "c", "output": "secret"}),
        provider._sign({"type": "message", "role": "assistant", "content": "done"}),
    )

    assert provider.filter_native(items, "full", 10) == items
    assert provider.filter_native(items, "no_reasoning", 10) == (items[0], items[2], items[3], items[4])
    placeholder = provider.filter_native(items, "no_tool_results", 10)
    assert placeholder[:3] == items[:3] and placeholder[4] == items[4]
    assert json.loads(placeholder[3]) == {
        "type": "function_call_output",
        "call_id": "c",
        "output": TOOL_RESULT_PLACEHOLDER,
    }


# -- where a filter may be asked for ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["no_reasoning", "no_tool_results", "compact_tool_results"])
async def test_a_filter_on_a_history_mode_session_is_a_validation_error(name: str) -> None:
    driver = make_driver()

    with pytest.raises(ValidationFailed) as caught:
        await create(driver, name, mode="history")

    assert caught.value.status == 422
    assert caught.value.problem()["errors"] == [{"location": "body.nativeHistory", "message": "requires mode native"}]
    assert len(driver.store) == 0


async def test_full_is_the_default_and_may_be_named_explicitly_in_either_mode() -> None:
    driver = make_driver()

    assert (await create(driver, None)).nativeHistory == "full"
    assert (await create(driver, "full")).nativeHistory == "full"
    assert (await create(driver, "full", mode="history")).nativeHistory == "full"


async def test_a_filter_the_provider_does_not_support_is_unsupported_continuation() -> None:
    driver = make_driver(NarrowProvider())

    with pytest.raises(UnsupportedContinuation) as caught:
        await create(driver, "no_tool_results", provider="narrow")

    assert caught.value.status == 422
    assert "no_tool_results" in caught.value.detail
    assert (await create(driver, "no_reasoning", provider="narrow")).nativeHistory == "no_reasoning"
    assert len(driver.store) == 1


async def test_an_echo_without_native_sessions_refuses_a_filtered_native_session_as_unsupported() -> None:
    driver = make_driver(EchoProvider(id="echo", models=("echo-1",), account_id="acct-1", native_supported=False))

    with pytest.raises(UnsupportedContinuation):
        await create(driver, "no_reasoning")


async def test_discovery_lists_each_providers_native_history_filters() -> None:
    driver = Driver([echo(), NarrowProvider()], sessions=SessionsConfig(retentionMs=60_000), clock=ManualClock())

    providers = {p.id: p.capabilities for p in (await driver.discovery()).providers}

    assert providers["echo"].nativeHistoryFilters == list(FILTERS)
    assert providers["narrow"].nativeHistoryFilters == ["full", "no_reasoning"]
