"""Host JSON's ``qualification`` block: native sessions only on instances and models with a current record.

The records are written as ``qualify`` writes them (``Qualification.record``), for the echo
provider, so these tests need no network; ``tests/adapters/test_qualify.py`` makes real ones.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest

from agentic_driver import Driver
from agentic_driver.clock import ManualClock
from agentic_driver.config import ConfigError, parse_config
from agentic_driver.errors import UnsupportedContinuation
from agentic_driver.models import CreateSessionRequest
from agentic_driver.qualification import DAY_MS, Qualification, identity_of, record_path, write_record

MODELS = ["echo-1", "org/echo.2"]


def _document(record_dir: Path, **qualification: Any) -> dict[str, Any]:
    return {
        "providers": [
            {"id": "echo", "kind": "echo", "accountId": "acct-1", "models": MODELS},
            {"id": "other", "kind": "echo", "accountId": "acct-1", "models": ["echo-1"]},
        ],
        "sessions": {"retentionMs": 60_000},
        "qualification": {"recordDir": str(record_dir), "providers": ["echo", "other"], **qualification},
    }


def _driver(record_dir: Path, clock: ManualClock, **qualification: Any) -> Driver:
    return Driver.from_config(parse_config(_document(record_dir, **qualification)), clock=clock)


def _qualify(record_dir: Path, clock: ManualClock, model: str, *, failure: str | None = None, **changed: Any) -> Path:
    """Write the record ``qualify`` would write for the 'echo' instance and ``model`` now (``changed``: a stale one)."""
    config = parse_config(_document(record_dir)).providers[0]
    identity = dataclasses.replace(identity_of(config, "acct-1", model), **changed)
    path = record_path(record_dir, "echo", model)
    write_record(path, Qualification(identity, clock.now_ms(), failure=failure).record())
    return path


async def _native(driver: Driver, model: str = "echo-1", provider: str = "echo") -> str:
    created = await driver.create_session(CreateSessionRequest(provider=provider, model=model, mode="native"))
    return created.session.mode


async def _advertised(driver: Driver) -> dict[str, bool]:
    return {p.id: p.capabilities.nativeContinuation for p in (await driver.discovery()).providers}


async def test_without_a_record_native_is_neither_advertised_nor_accepted(tmp_path: Path) -> None:
    driver = _driver(tmp_path, ManualClock())
    assert await _advertised(driver) == {"echo": False, "other": False}
    expected = record_path(tmp_path, "echo", "echo-1")
    with pytest.raises(UnsupportedContinuation) as refused:
        await _native(driver)
    assert f"no record at {expected}" in refused.value.detail
    assert "agentic-driver qualify --config FILE --provider echo --model echo-1" in refused.value.detail
    # History sessions need no record.
    created = await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    assert created.session.mode == "history"


async def test_a_current_record_admits_its_model_and_discovery_waits_for_every_model(tmp_path: Path) -> None:
    clock = ManualClock()
    driver = _driver(tmp_path, clock)
    _qualify(tmp_path, clock, "echo-1")
    assert await _native(driver, "echo-1") == "native"
    with pytest.raises(UnsupportedContinuation, match=re.escape("org/echo.2")):
        await _native(driver, "org/echo.2")
    assert (await _advertised(driver))["echo"] is False
    path = _qualify(tmp_path, clock, "org/echo.2")
    assert path == tmp_path / "echo" / "org%2Fecho.2.json"
    assert (await _advertised(driver))["echo"] is True
    assert await _native(driver, "org/echo.2") == "native"


async def test_a_record_older_than_max_age_days_no_longer_counts(tmp_path: Path) -> None:
    clock = ManualClock()
    driver = _driver(tmp_path, clock, maxAgeDays=7)
    _qualify(tmp_path, clock, "echo-1")
    clock.advance(7 * DAY_MS)
    assert await _native(driver) == "native"
    clock.advance(1)
    with pytest.raises(UnsupportedContinuation, match="older than maxAgeDays 7"):
        await _native(driver)


@pytest.mark.parametrize(
    ("changed", "said"),
    [
        ({"accountId": "acct-0"}, "made for accountId 'acct-0', the instance has 'acct-1'"),
        ({"adapterVersion": "agentic-driver 0.0.9"}, "made for adapterVersion 'agentic-driver 0.0.9'"),
        ({"baseUrl": "https://elsewhere.example"}, "made for baseUrl 'https://elsewhere.example'"),
        ({"kind": "anthropic"}, "made for kind 'anthropic'"),
        ({"requestSettings": "sha256:0"}, "made for requestSettings 'sha256:0'"),
    ],
)
async def test_a_record_made_for_something_else_does_not_count(
    tmp_path: Path, changed: dict[str, Any], said: str
) -> None:
    clock = ManualClock()
    driver = _driver(tmp_path, clock)
    _qualify(tmp_path, clock, "echo-1", **changed)
    with pytest.raises(UnsupportedContinuation, match=said):
        await _native(driver)


def test_request_settings_tell_thinking_on_from_off(tmp_path: Path) -> None:
    plain = {"id": "c", "kind": "anthropic", "accountId": "a", "models": ["m"]}
    thinking = {**plain, "extraBody": {"thinking": {"type": "enabled", "budget_tokens": 1024}}}
    digests = {
        identity_of(parse_config({"providers": [entry]}).providers[0], "a", "m").requestSettings
        for entry in (plain, thinking, {**plain, "anthropicVersion": "2024-01-01"})
    }
    assert len(digests) == 3


async def test_rebinding_the_account_needs_a_new_record(tmp_path: Path) -> None:
    clock = ManualClock()
    driver = _driver(tmp_path, clock)
    _qualify(tmp_path, clock, "echo-1")
    assert await _native(driver) == "native"
    driver.bind_account("echo", "acct-2")
    with pytest.raises(UnsupportedContinuation, match="made for accountId 'acct-1', the instance has 'acct-2'"):
        await _native(driver)


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (None, "says qualification failed"),
        ("{not json", "cannot be read"),
        ('{"format": "something-else"}', "is not a qualification record"),
    ],
)
async def test_a_failed_or_unreadable_record_does_not_count(tmp_path: Path, content: str | None, said: str) -> None:
    clock = ManualClock()
    driver = _driver(tmp_path, clock)
    path = _qualify(tmp_path, clock, "echo-1", failure="turn 2 (tool round) failed: PROVIDER_REJECTED: bad")
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(UnsupportedContinuation, match=said):
        await _native(driver)


async def test_a_record_from_the_future_does_not_count(tmp_path: Path) -> None:
    clock = ManualClock()
    driver = _driver(tmp_path, clock)
    path = _qualify(tmp_path, clock, "echo-1")
    record = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**record, "qualifiedAtMs": clock.now_ms() + DAY_MS}), encoding="utf-8")
    with pytest.raises(UnsupportedContinuation, match="no valid qualifiedAtMs"):
        await _native(driver)


async def test_only_the_instances_named_need_a_record(tmp_path: Path) -> None:
    driver = _driver(tmp_path, ManualClock(), providers=["echo"])
    assert await _advertised(driver) == {"echo": False, "other": True}
    assert await _native(driver, provider="other") == "native"


async def test_every_instance_means_every_network_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTIC_DRIVER_TEST_QUALIFICATION_KEY", "sk-never-sent")
    document = _document(tmp_path, providers=["*"])
    document["providers"].append(
        {"id": "live", "kind": "openai-chat", "accountId": "a", "models": ["m"], "baseUrl": "http://127.0.0.1:9"}
    )
    document["providers"].append(
        {
            "id": "responses",
            "kind": "openai-responses",
            "accountId": "a",
            "models": ["m"],
            "apiKeyEnv": "AGENTIC_DRIVER_TEST_QUALIFICATION_KEY",
        }
    )
    driver = Driver.from_config(parse_config(document))
    assert await _advertised(driver) == {"echo": True, "other": True, "live": False, "responses": False}
    assert await _native(driver) == "native"
    with pytest.raises(UnsupportedContinuation, match="needs a current qualification record"):
        await _native(driver, "m", "responses")


async def test_without_the_block_nothing_is_required(tmp_path: Path) -> None:
    document = _document(tmp_path)
    del document["qualification"]
    driver = Driver.from_config(parse_config(document))
    assert await _advertised(driver) == {"echo": True, "other": True}
    assert await _native(driver) == "native"


def test_the_block_names_only_configured_instances(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as error:
        parse_config(_document(tmp_path, providers=["echo", "nope"]))
    assert error.value.problems == ["qualification.providers: unknown provider 'nope'"]


@pytest.mark.parametrize(
    ("provider", "model", "name"), [("..", "..", "%2E./%2E..json"), ("a/b", ".x", "a%2Fb/%2Ex.json")]
)
def test_record_paths_stay_inside_the_directory(tmp_path: Path, provider: str, model: str, name: str) -> None:
    assert record_path(tmp_path, provider, model) == tmp_path / name
