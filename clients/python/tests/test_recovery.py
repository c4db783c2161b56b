"""The documented recovery paths: reconcile after a lost answer, fork explicitly."""

from __future__ import annotations

import httpx
import pytest

import agentic_driver_sdk as sdk
from agentic_driver_client.models import Message

from .conftest import Driver, Host, Seen, d, driver_for, recording, wait_for_status

ECHO = {"provider": "echo", "model": "echo-1"}


class RefuseFirst(httpx.MockTransport):
    """Never reaches the host: the first request fails to connect (the sync and async forms in one)."""

    def __init__(self) -> None:
        super().__init__(self.refuse)

    def refuse(self, request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused (injected)", request=request)


async def test_reconcile_after_a_lost_answer_that_landed(kind: str, host: Host) -> None:
    async with driver_for(kind, host) as driver:
        session = await d(driver.client.sessions.create(**ECHO))
        sent = session.handle
        lossy = recording(kind, Seen(), drop_first="/v1/runs")
        async with driver_for(kind, host, transport=lossy, max_retries=0) as losing:
            with pytest.raises(sdk.APIConnectionError):
                await d(losing.client.run(**ECHO, input="did this land?", session=sent))
        state = await d(driver.client.reconcile(session.id, sent))
    assert state.landed and state.reply == "echo: did this land?"
    assert state.session.revision == 1 and state.turn is not None and state.turn.revision == 1
    assert state.interrupted is None and not state.in_progress


async def test_reconcile_after_a_request_that_never_arrived(kind: str, host: Host) -> None:
    async with driver_for(kind, host) as driver:
        session = await d(driver.client.sessions.create(**ECHO))
        async with driver_for(kind, host, transport=RefuseFirst(), max_retries=0) as refused:
            with pytest.raises(sdk.APIConnectionError):
                await d(refused.client.run(**ECHO, input="lost", session=session))
        state = await d(driver.client.reconcile(session.id, session))
        assert not state.landed and state.reply is None and state.interrupted is None
        # Not landed: send it again with the handle reconcile gives back.
        again = await d(driver.client.run(**ECHO, input="lost", session=state.session))
    assert again.session.revision == 1


async def test_reconcile_after_a_timeout_that_interrupted_the_turn(kind: str, host: Host) -> None:
    async with driver_for(kind, host) as driver:
        session = await d(driver.client.sessions.create(**ECHO))
        impatient = driver.with_options(timeout=httpx.Timeout(10.0, read=0.3))
        with pytest.raises(sdk.APITimeoutError):
            await d(impatient.client.run(**ECHO, input="!sleep 2000\nslow", session=session))
        await wait_for_status(driver, session.id, "interrupted")
        state = await d(driver.client.reconcile(session.id, session))
    assert not state.landed and state.interrupted is not None
    assert str(state.interrupted.reason) == "disconnected" and state.interrupted.input_ == "!sleep 2000\nslow"


async def filled(driver: Driver, instructions: str | None = "Be brief.") -> str:
    session = await d(driver.client.sessions.create(**ECHO, instructions=instructions))
    for text in ("one", "two", "three"):
        session = (await d(driver.client.run(**ECHO, input=text, session=session))).session
    return str(session.id)


async def history_of(driver: Driver, session_id: str) -> list[str]:
    return [m.content for m in (await d(driver.client.sessions.read(session_id))).history]


async def test_fork_keeps_the_last_n_messages(driver: Driver) -> None:
    original = await filled(driver)
    fork = await d(driver.client.fork(original, keep=2))
    assert fork.id != original and fork.revision == 0
    assert await history_of(driver, fork.id) == ["three", "echo: three"]
    read = await d(driver.client.sessions.read(fork.id))
    assert read.instructions == "Be brief." and read.session.provider == "echo"


async def test_fork_keeps_a_slice_or_what_a_function_chooses(driver: Driver) -> None:
    original = await filled(driver)
    by_slice = await d(driver.client.fork(original, keep=slice(0, 4)))
    assert await history_of(driver, by_slice.id) == ["one", "echo: one", "two", "echo: two"]

    def users_only(history: list[Message]) -> list[Message]:
        return [m for m in history if str(m.role) == "user"]

    chosen = await d(driver.client.fork(original, keep=users_only, instructions=None))
    assert await history_of(driver, chosen.id) == ["one", "two", "three"]
    assert (await d(driver.client.sessions.read(chosen.id))).instructions is None
    nothing = await d(driver.client.fork(original, keep=0))
    assert await history_of(driver, nothing.id) == []


async def test_fork_onto_another_provider_and_model(driver: Driver) -> None:
    original = await filled(driver)
    moved = await d(driver.client.fork(original, provider="echo-history", model="echo-2", mode="history"))
    assert (moved.provider, moved.model, str(moved.mode)) == ("echo-history", "echo-2", "history")
    assert len(await history_of(driver, moved.id)) == 6
    result = await d(driver.client.run(provider="echo-history", model="echo-2", input="!recall", session=moved))
    assert result.output.text == "recall: 6 messages; last user: three"


async def test_fork_of_an_interrupted_session_goes_on(driver: Driver) -> None:
    original = await filled(driver)
    read = await d(driver.client.sessions.read(original))
    with pytest.raises(sdk.ProviderError):
        await d(driver.client.run(**ECHO, input="!fail", session=read.session))
    with pytest.raises(sdk.SessionInterruptedError):
        await d(driver.client.run(**ECHO, input="next", session=read.session))
    fresh = await d(driver.client.fork(original))
    result = await d(driver.client.run(**ECHO, input="!recall", session=fresh))
    assert result.output.text == "recall: 6 messages; last user: three"


def test_keep_must_not_be_negative() -> None:
    from agentic_driver_sdk._recovery import keep_messages

    with pytest.raises(ValueError, match="keep"):
        keep_messages([], -1)
