"""Accounting: each run's figures in its result, and a session's totals as the sum of every run that reached
the model, however it ended (completed, failed, cancelled, disconnected, timed out), never rewound by truncation.

A stub provider reports large, round usage figures under its own served-model name (so costs are exact binary
fractions) and reports them before it fails or stalls, as a real adapter that was billed would. Echo covers the
directive-driven endings. Concurrency is driven with tasks and bounded polling, never fixed sleeps.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from agentic_driver import Driver, EchoProvider, ManualClock, SessionPrincipal, SessionsConfig, parse_config
from agentic_driver.errors import (
    ProviderError,
    ProviderTimeout,
    RunCancelled,
    SessionBusy,
    SessionInterrupted,
    SessionLimitExceeded,
    SessionNotFound,
    SessionRevisionConflict,
)
from agentic_driver.models import (
    CreateSessionRequest,
    FunctionResult,
    RetryAccounting,
    RunRequest,
    RunResult,
    ServedModelRuns,
    SessionHandle,
    SessionInfo,
    SubmitRunActionsRequest,
    ToolDefinition,
    TruncateSessionRequest,
    Usage,
)
from agentic_driver.pricing import Prices
from agentic_driver.providers.base import (
    Capabilities,
    ModelRequest,
    ProviderFailure,
    RetryReport,
    TextDelta,
    TurnEvent,
    UsageReport,
)
from agentic_driver.providers.base import Usage as Figures
from agentic_driver.turns import ActiveRun

BILLED = Figures(
    input_tokens=1_000_000,
    output_tokens=500_000,
    cached_input_tokens=250_000,
    cache_write_tokens=125_000,
    reasoning_tokens=100_000,
)
RETRIED = Figures(input_tokens=200_000, output_tokens=0)
SERVED = "meter-1-2026-01-01"
# 625k plain input at 2, 250k cached at 0.5, 125k cache writes at 4, 500k output at 8 (per million)
PRICES = Prices(
    input_per_million=2.0, output_per_million=8.0, cached_input_per_million=0.5, cache_write_per_million=4.0
)
BILLED_COST = 5.875
RETRIED_COST = 0.4  # 200k input at 2 per million

LOOKUP = ToolDefinition(name="lookup", description="Look it up.", parameters={"type": "object"})


@dataclass
class MeteredProvider:
    """Reports ``BILLED`` (served as ``SERVED``) on every call, then replies ``metered reply``.

    Words in the input steer it: ``retry`` first reports one failed, retried attempt; ``fail`` fails
    after reporting its usage; ``hang`` reports its usage, then waits until cancelled.
    """

    id: str = "metered"
    models: tuple[str, ...] = ("meter-1",)
    account_id: str | None = "acct-1"
    kind: str = "metered"
    served: str | None = SERVED
    never: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(
            history_continuation=True, native_continuation=False, streaming=True, application_functions=False
        )

    async def turn(self, request: ModelRequest, *, native: bool) -> AsyncGenerator[TurnEvent, None]:
        words = request.input.split()
        if "retry" in words:
            yield RetryReport(RETRIED)
        yield UsageReport(BILLED, model=self.served)
        if "fail" in words:
            raise ProviderFailure("upstream failed after billing")
        if "hang" in words:
            await self.never.wait()
        yield TextDelta("metered reply")


def served(model: str, runs: int = 1) -> list[ServedModelRuns]:
    return [ServedModelRuns(model=model, runs=runs)]


def view(figures: Figures) -> Usage:
    return Usage(
        inputTokens=figures.input_tokens,
        outputTokens=figures.output_tokens,
        cachedInputTokens=figures.cached_input_tokens,
        cacheWriteTokens=figures.cache_write_tokens,
        reasoningTokens=figures.reasoning_tokens,
    )


def add_usage(*usages: Usage) -> Usage:
    total = Usage(inputTokens=0, outputTokens=0, cachedInputTokens=0, cacheWriteTokens=0, reasoningTokens=0)
    for usage in usages:
        total = Usage(
            inputTokens=total.inputTokens + usage.inputTokens,
            outputTokens=total.outputTokens + usage.outputTokens,
            cachedInputTokens=total.cachedInputTokens + usage.cachedInputTokens,
            cacheWriteTokens=total.cacheWriteTokens + usage.cacheWriteTokens,
            reasoningTokens=total.reasoningTokens + usage.reasoningTokens,
        )
    return total


ZERO = add_usage()


async def wait_until(condition: Callable[[], bool], *, turns: int = 1_000) -> None:
    """Yield to the loop until ``condition`` holds, failing after ``turns`` loop turns."""
    for _ in range(turns):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the condition did not hold within the bounded number of loop turns")


def model_work_started(run: ActiveRun | None) -> bool:
    return run is not None and run.model_work_started


def make_driver(*providers: Any, prices: dict[tuple[str, str], Prices] | None = None, **options: Any) -> Driver:
    return Driver(
        list(providers) or [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
        prices=prices,
        **options,
    )


async def new_session(driver: Driver, provider: str = "echo", model: str = "echo-1") -> SessionInfo:
    return (await driver.create_session(CreateSessionRequest(provider=provider, model=model, mode="history"))).session


def session_run(session: SessionInfo, text: str, revision: int | None = None, **extra: Any) -> RunRequest:
    handle = SessionHandle(id=session.id, revision=session.revision if revision is None else revision)
    return RunRequest(provider=session.provider, model=session.model, input=text, session=handle, **extra)


async def recover(driver: Driver, session_id: str) -> SessionInfo:
    """Truncate an interrupted session back to its last good turn (keeping every turn); it is ready again."""
    read = await driver.read_session(session_id)
    assert read.session.status == "interrupted"
    kept = await driver.truncate_session(
        session_id, TruncateSessionRequest(revision=read.session.revision, keepTurns=len(read.turns))
    )
    assert kept.session.status == "ready"
    return kept.session


# -- per run -------------------------------------------------------------------------------------------


async def test_an_echo_run_result_carries_usage_with_all_five_fields_no_cost_no_retries_and_the_served_model() -> None:
    driver = make_driver()
    session = await new_session(driver)

    result = await driver.run(session_run(session, "hello there"))
    stateless = await driver.run(RunRequest(provider="echo", model="echo-1", input="one two three"))

    assert result.usage == Usage(
        inputTokens=2, outputTokens=3, cachedInputTokens=0, cacheWriteTokens=0, reasoningTokens=0
    )
    assert result.cost is None  # no prices configured: never a guess
    assert result.retries == RetryAccounting(count=0, inputTokens=0, outputTokens=0, cost=None)
    assert result.servedModel == "echo-1"
    dumped = result.model_dump()
    assert {"usage", "cost", "retries", "servedModel"} <= set(dumped)  # required, present even when null
    assert dumped["cost"] is None
    assert (stateless.usage.inputTokens, stateless.usage.outputTokens, stateless.cost) == (3, 4, None)
    assert stateless.servedModel == "echo-1"
    assert "session" not in stateless.model_dump()


def test_prices_cost_every_kind_of_token_exactly_and_default_cached_and_cache_writes_to_the_input_price() -> None:
    assert PRICES.cost(BILLED) == BILLED_COST
    # without their own prices, cached input and cache writes cost what input costs: 1M input at 2, 500k output at 8
    assert Prices(input_per_million=2.0, output_per_million=8.0).cost(BILLED) == 6.0
    assert (
        Prices(2.0, 8.0, cached_input_per_million=0.5).cost(BILLED)
        == (625_000 * 2 + 250_000 * 0.5 + 125_000 * 2 + 4e6) / 1e6
    )
    assert (
        Prices(2.0, 8.0, cache_write_per_million=4.0).cost(BILLED)
        == (625_000 * 2 + 250_000 * 2 + 125_000 * 4 + 4e6) / 1e6
    )
    assert Prices(2.0, 8.0, 0.0, 0.0).cost(Figures(input_tokens=10, cached_input_tokens=10)) == 0.0
    assert PRICES.cost(Figures()) == 0.0
    # reasoning is part of output: it is not charged twice
    assert PRICES.cost(Figures(output_tokens=1_000_000, reasoning_tokens=1_000_000)) == 8.0


async def test_a_priced_run_reports_its_exact_cost_and_the_model_the_provider_says_served_it() -> None:
    metered = MeteredProvider()
    driver = make_driver(metered, prices={("metered", "meter-1"): PRICES})
    session = await new_session(driver, "metered", "meter-1")

    result = await driver.run(session_run(session, "hello"))

    assert result.usage == view(BILLED)
    assert result.cost == BILLED_COST
    assert result.retries == RetryAccounting(count=0, inputTokens=0, outputTokens=0, cost=0.0)
    assert result.servedModel == SERVED  # as the provider reported it, not the model requested
    info = result.session
    assert (info.runCount, info.usage, info.cost, info.servedModelRuns) == (
        1,
        view(BILLED),
        BILLED_COST,
        served(SERVED),
    )


async def test_prices_come_from_host_config_per_provider_and_model_and_an_unpriced_model_costs_null() -> None:
    config = parse_config(
        {
            "providers": [
                {
                    "id": "echo",
                    "kind": "echo",
                    "accountId": "acct-1",
                    "models": ["echo-1", "echo-2"],
                    "prices": {"echo-1": {"inputPerMillion": 1_000_000, "outputPerMillion": 2_000_000}},
                }
            ],
            "sessions": {"retentionMs": 60_000},
        }
    )
    driver = Driver.from_config(config, clock=ManualClock())

    priced = await driver.run(RunRequest(provider="echo", model="echo-1", input="a b c"))
    unpriced = await driver.run(RunRequest(provider="echo", model="echo-2", input="a b c"))

    assert (priced.usage.inputTokens, priced.usage.outputTokens) == (3, 4)
    assert priced.cost == 3 * 1.0 + 4 * 2.0  # a million-token price is a per-token price of one
    assert priced.retries.cost == 0.0
    assert unpriced.cost is None and unpriced.retries.cost is None
    assert unpriced.servedModel == "echo-2"


async def test_a_retry_report_counts_in_retries_and_retry_cost_but_not_in_usage() -> None:
    metered = MeteredProvider()
    driver = make_driver(metered, prices={("metered", "meter-1"): PRICES})
    session = await new_session(driver, "metered", "meter-1")

    result = await driver.run(session_run(session, "retry please"))

    assert result.output.text == "metered reply"
    assert result.usage == view(BILLED)  # the successful attempt only
    assert result.cost == BILLED_COST
    assert result.retries == RetryAccounting(count=1, inputTokens=200_000, outputTokens=0, cost=RETRIED_COST)
    info = result.session
    assert info.usage == view(BILLED)
    assert info.cost == BILLED_COST
    assert info.retries == RetryAccounting(count=1, inputTokens=200_000, outputTokens=0, cost=RETRIED_COST)

    again = await driver.run(session_run(info, "retry again"))
    assert again.session.retries.count == 2
    assert again.session.retries.inputTokens == 400_000
    assert again.session.retries.cost == pytest.approx(2 * RETRIED_COST, rel=1e-12)
    assert again.session.usage == add_usage(view(BILLED), view(BILLED))


async def test_a_run_paused_for_function_results_shows_its_figures_so_far_and_the_completed_run_the_sum() -> None:
    driver = make_driver(prices={("echo", "echo-1"): Prices(1_000_000, 2_000_000)})
    session = await new_session(driver)

    paused = await driver.run(session_run(session, "!call lookup {}\nx", tools=[LOOKUP]))
    assert paused.status == "requires_action"
    assert (paused.usage.inputTokens, paused.usage.outputTokens, paused.cost) == (4, 0, 4.0)  # the input's words
    assert paused.servedModel == "echo-1"
    assert paused.session.runCount == 0  # not yet: the turn has not ended

    done = await driver.submit_run_actions(
        paused.id,
        SubmitRunActionsRequest(
            functionResults=[FunctionResult(callId=paused.requiredAction.calls[0].callId, output="y")]
        ),
    )

    # both model calls: the call step (4 words) and the reply step (the 4 input words and the 1-word answer)
    assert done.usage.inputTokens == 4 + 5
    assert done.usage.outputTokens == 6  # "echo: x | lookup -> y"
    assert done.cost == done.usage.inputTokens * 1.0 + done.usage.outputTokens * 2.0
    assert (done.session.runCount, done.session.usage, done.session.cost) == (1, done.usage, done.cost)
    assert done.session.servedModelRuns == served("echo-1")  # one turn, however many model calls it made


# -- per session: the sum of its runs ----------------------------------------------------------------


async def test_session_totals_are_the_sum_of_every_run_that_reached_the_model_however_it_ended() -> None:
    metered = MeteredProvider()
    driver = make_driver(metered, prices={("metered", "meter-1"): PRICES}, max_concurrent_runs=1)
    session = await new_session(driver, "metered", "meter-1")
    record = driver.store.get(session.id)

    completed = [await driver.run(session_run(session, "hello"))]
    completed.append(await driver.run(session_run(completed[-1].session, "retry once")))
    info = completed[-1].session

    # failed after model work started (usage was reported, then the upstream failed)
    with pytest.raises(ProviderError):
        await driver.run(session_run(info, "fail now"))
    assert record.interrupted_turn.reason == "failed"
    with pytest.raises(SessionInterrupted):  # a refusal: no model work, not accounted
        await driver.run(session_run(info, "refused"))
    info = await recover(driver, session.id)

    # cancelled after model work started; meanwhile a run and a truncation are refused as busy
    hanging = asyncio.create_task(driver.run(session_run(info, "hang on")))
    await wait_until(lambda: model_work_started(record.active_run))
    with pytest.raises(SessionBusy):
        await driver.run(session_run(info, "busy"))
    with pytest.raises(SessionBusy):
        await driver.truncate_session(session.id, TruncateSessionRequest(revision=info.revision, keepTurns=0))
    await driver.cancel_run(record.active_run.id)
    with pytest.raises(RunCancelled):
        await hanging
    assert record.interrupted_turn.reason == "cancelled"
    info = await recover(driver, session.id)

    # the client went away (a stream closed) after model work started
    events = await driver.stream_run(session_run(info, "hang on"))
    await anext(events)
    run = record.active_run
    await wait_until(lambda: model_work_started(run))
    await events.aclose()
    await run.settled()
    assert record.interrupted_turn.reason == "disconnected"
    info = await recover(driver, session.id)

    # the provider went silent for longer than the run's idle timeout
    with pytest.raises(ProviderTimeout):
        await driver.run(session_run(info, "hang on", idleTimeoutMs=20))
    assert record.interrupted_turn.reason == "idle_timeout"
    info = await recover(driver, session.id)

    # a stale revision is refused before any model work
    with pytest.raises(SessionRevisionConflict):
        await driver.run(session_run(info, "stale", revision=info.revision - 1))

    # cancelled while waiting for the only run slot: no model work, not accounted, the session stays ready
    holder = asyncio.create_task(driver.run(RunRequest(provider="metered", model="meter-1", input="hang stateless")))
    await wait_until(lambda: driver.slots.in_use == 1)
    queued = asyncio.create_task(driver.run(session_run(info, "queued")))
    await wait_until(lambda: driver.slots.waiting == 1)
    cancelled = await driver.cancel_run(record.active_run.id)
    assert cancelled.modelWorkStarted is False
    with pytest.raises(RunCancelled):
        await queued
    assert record.status == "ready" and record.interrupted_turn is None
    holder.cancel()
    await asyncio.wait([holder])

    completed.append(await driver.run(session_run(info, "goodbye")))
    final = completed[-1].session

    interrupted = 4  # failed, cancelled, disconnected, timed out: each reported BILLED before it ended
    assert final.runCount == len(completed) + interrupted == 7
    assert final.usage == add_usage(*(r.usage for r in completed), *[view(BILLED)] * interrupted)
    assert final.cost == sum(r.cost for r in completed) + interrupted * BILLED_COST == 7 * BILLED_COST
    assert final.servedModelRuns == served(SERVED, 7)
    assert final.retries == RetryAccounting(count=1, inputTokens=200_000, outputTokens=0, cost=RETRIED_COST)
    assert sum(r.retries.count for r in completed) == final.retries.count
    # three turns remain addressable; seven were run
    read = await driver.read_session(session.id)
    assert [t.runId for t in read.turns] == [r.id for r in completed]
    assert read.session == final.model_copy(update={"updatedAt": read.session.updatedAt})


async def test_with_echo_interrupted_fail_cancel_disconnect_and_timeout_runs_count_and_refusals_do_not() -> None:
    driver = make_driver(prices={("echo", "echo-1"): Prices(1_000_000, 2_000_000)})
    session = await new_session(driver)
    record = driver.store.get(session.id)
    completed: list[RunResult] = [await driver.run(session_run(session, "first turn"))]

    with pytest.raises(ProviderError):
        await driver.run(session_run(completed[-1].session, "!fail\nboom"))
    info = await recover(driver, session.id)

    sleeping = asyncio.create_task(driver.run(session_run(info, "!sleep 10000\nslow")))
    await wait_until(lambda: model_work_started(record.active_run))
    await driver.cancel_run(record.active_run.id)
    with pytest.raises(RunCancelled):
        await sleeping
    info = await recover(driver, session.id)

    events = await driver.stream_run(session_run(info, "!sleep 10000\nslow"))
    await anext(events)
    run = record.active_run
    await wait_until(lambda: model_work_started(run))
    await events.aclose()
    await run.settled()
    info = await recover(driver, session.id)

    with pytest.raises(ProviderTimeout):
        await driver.run(session_run(info, "!sleep 10000\nslow", idleTimeoutMs=20))
    info = await recover(driver, session.id)

    # a turn paused for a function result is billed for its call step when it is cancelled
    paused = await driver.run(session_run(info, "!call lookup {}\nx", tools=[LOOKUP]))
    await driver.cancel_run(paused.id)
    info = await recover(driver, session.id)

    with pytest.raises(SessionRevisionConflict):
        await driver.run(session_run(info, "stale", revision=0))
    completed.append(await driver.run(session_run(info, "last turn")))
    final = completed[-1].session

    # echo reports usage when a call completes: the failed, cancelled, disconnected and timed-out calls
    # reported none, but each reached the model and counts as a run; the paused call step reported its usage
    assert final.runCount == len(completed) + 5 == 7
    assert final.usage == add_usage(*(r.usage for r in completed), paused.usage)
    assert final.cost == pytest.approx(sum(r.cost for r in completed) + paused.cost, rel=1e-12)
    assert final.servedModelRuns == served("echo-1", 3)  # the calls that reported a served model
    assert final.retries == RetryAccounting(count=0, inputTokens=0, outputTokens=0, cost=0.0)
    assert len((await driver.read_session(session.id)).turns) == 2


async def test_a_run_cancelled_before_model_work_and_every_refusal_leave_the_totals_untouched() -> None:
    driver = make_driver(max_concurrent_runs=1)
    session = await new_session(driver)
    record = driver.store.get(session.id)
    first = await driver.run(session_run(session, "one"))
    before = (await driver.read_session(session.id)).session

    holder = asyncio.create_task(driver.run(RunRequest(provider="echo", model="echo-1", input="!sleep 10000\nhold")))
    await wait_until(lambda: driver.slots.in_use == 1)
    queued = asyncio.create_task(driver.run(session_run(first.session, "queued")))
    await wait_until(lambda: driver.slots.waiting == 1)
    with pytest.raises(SessionBusy):
        await driver.run(session_run(first.session, "busy"))
    with pytest.raises(SessionRevisionConflict):
        await driver.run(session_run(first.session, "stale", revision=0))
    await driver.cancel_run(record.active_run.id)
    with pytest.raises(RunCancelled):
        await queued
    holder.cancel()
    await asyncio.wait([holder])

    after = (await driver.read_session(session.id)).session
    assert after.status == "ready"
    assert (
        (after.runCount, after.usage, after.cost, after.retries, after.servedModelRuns)
        == (
            before.runCount,
            before.usage,
            before.cost,
            before.retries,
            before.servedModelRuns,
        )
        == (1, first.usage, None, RetryAccounting(count=0, inputTokens=0, outputTokens=0, cost=None), served("echo-1"))
    )


async def test_truncation_never_rewinds_accounting() -> None:
    metered = MeteredProvider()
    driver = make_driver(metered, prices={("metered", "meter-1"): PRICES})
    session = await new_session(driver, "metered", "meter-1")
    info = session
    for text in ("one", "retry two", "three"):
        info = (await driver.run(session_run(info, text))).session
    totals = (info.runCount, info.usage, info.cost, info.retries, info.servedModelRuns)

    for keep in (2, 0):
        info = (
            await driver.truncate_session(session.id, TruncateSessionRequest(revision=info.revision, keepTurns=keep))
        ).session
        assert (info.runCount, info.usage, info.cost, info.retries, info.servedModelRuns) == totals
        assert info.messageCount == 2 * keep

    after = await driver.run(session_run(info, "four"))
    assert after.session.runCount == 4
    assert after.session.usage == add_usage(*[view(BILLED)] * 4)
    assert after.session.cost == 4 * BILLED_COST
    assert len((await driver.read_session(session.id)).turns) == 1


async def test_a_provider_that_names_no_served_model_adds_none_to_served_models() -> None:
    metered = MeteredProvider(served=None)
    driver = make_driver(metered)
    session = await new_session(driver, "metered", "meter-1")

    result = await driver.run(session_run(session, "hello"))

    assert result.servedModel is None
    assert result.session.servedModelRuns == []
    assert result.session.runCount == 1


async def test_runs_of_a_session_deleted_mid_turn_are_not_accounted_anywhere_and_nothing_breaks() -> None:
    driver = make_driver()
    session = await new_session(driver)
    record = driver.store.get(session.id)
    running = asyncio.create_task(driver.run(session_run(session, "!sleep 10000\nslow")))
    await wait_until(lambda: model_work_started(record.active_run))

    await driver.delete_session(session.id)

    with pytest.raises(RunCancelled):
        await running
    assert record.accounting.runs == 0


async def test_another_subject_never_sees_a_sessions_accounting() -> None:
    driver = make_driver()
    session = await new_session(driver)
    await driver.run(session_run(session, "mine"))
    bob = SessionPrincipal(subject="bob")

    with pytest.raises(SessionNotFound):
        await driver.read_session(session.id, bob)


async def test_a_turn_whose_commit_exceeds_a_bound_was_still_billed_and_is_accounted() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000, maxNativeMessages=2),  # an echo native turn stores 3 items
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="native"))
    ).session

    with pytest.raises(SessionLimitExceeded):
        await driver.run(session_run(session, "one two"))

    read = await driver.read_session(session.id)
    assert (read.session.status, read.interruptedTurn.reason) == ("interrupted", "limit_exceeded")
    assert read.session.runCount == 1
    assert (read.session.usage.inputTokens, read.session.usage.outputTokens) == (2, 3)  # "echo: one two"
    assert read.session.servedModelRuns == served("echo-1")
    assert read.turns == []
