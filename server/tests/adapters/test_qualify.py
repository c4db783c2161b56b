"""``agentic-driver qualify`` against the adapters' fakes, which verify replayed signatures as the providers do.

A passing qualification must have replayed stored provider items on every turn after the first
and the fake must have verified them; a fake that stops accepting replayed signatures makes it
fail, naming the turn. The record it writes then lets a host that requires one create native
sessions on that instance and model.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fakes import AnthropicFake, FakeUpstream, GeminiFake, OpenAIResponsesFake
from fakes.tampering import tampering

from agentic_driver import Driver, cli
from agentic_driver.config import HostConfig, parse_config
from agentic_driver.errors import UnsupportedContinuation
from agentic_driver.models import CreateSessionRequest
from agentic_driver.qualification import ADAPTER_VERSION, identity_of, record_path
from agentic_driver.qualify import PROBE, qualify

KEY = "sk-qualify-test-key"
KEY_ENV = "AGENTIC_DRIVER_TEST_QUALIFY_KEY"
FAKES: dict[str, type[FakeUpstream]] = {
    "openai-responses": OpenAIResponsesFake,
    "anthropic": AnthropicFake,
    "gemini": GeminiFake,
}
KINDS = list(FAKES)


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)


@pytest.fixture(scope="module")
def fakes() -> Iterator[dict[str, FakeUpstream]]:
    started = {kind: fake(api_key=KEY).start() for kind, fake in FAKES.items()}
    yield started
    for fake in started.values():
        fake.stop()


def _entry(kind: str, fake: FakeUpstream, stream: bool = True) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": "live",
        "kind": kind,
        "accountId": "acct-1",
        "models": ["m-1", "m-2"],
        "baseUrl": fake.base_url,
        "apiKeyEnv": KEY_ENV,
        "stream": stream,
        "maxRetries": 0,
    }
    if kind == "anthropic":  # thinking blocks (and their signatures) only come with thinking enabled
        entry["extraBody"] = {"thinking": {"type": "enabled", "budget_tokens": 1024}}
    return entry


def _config(kind: str, fake: FakeUpstream, stream: bool = True, **extra: Any) -> HostConfig:
    return parse_config({"providers": [_entry(kind, fake, stream)], **extra})


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "json"])
@pytest.mark.parametrize("kind", KINDS)
async def test_qualification_passes_and_every_replay_was_verified(
    fakes: dict[str, FakeUpstream], kind: str, stream: bool
) -> None:
    fake = fakes[kind]
    fake.reset()
    outcome = await qualify(_config(kind, fake, stream), "live", "m-1", name="Ravomikute")
    assert outcome.passed, outcome.failure
    assert [(t.turn, t.purpose, t.outcome) for t in outcome.reports] == [
        (1, "remember", "accepted"),
        (2, "tool round", "accepted"),
        (3, "recall", "accepted"),
    ]
    assert outcome.reports[0].replayedItems == 0
    assert 0 < outcome.reports[1].replayedItems < outcome.reports[2].replayedItems
    assert outcome.reports[1].toolRounds == 1
    # The fake saw four requests (the tool round is two); each after the first replayed signed items it verified.
    assert len(fake.requests) == 4
    assert fake.requests[0].verified == 0
    assert all(r.verified > 0 for r in fake.requests[1:]), [r.verified for r in fake.requests]
    assert any(PROBE in json.dumps(r.body) for r in fake.requests[2:])
    record = outcome.record()
    assert record["result"] == "passed" and record["failure"] is None
    assert record["identity"] == {
        "provider": "live",
        "kind": kind,
        "baseUrl": fake.base_url,
        "stream": stream,
        "accountId": "acct-1",
        "model": "m-1",
        "requestSettings": identity_of(_config(kind, fake, stream).providers[0], "acct-1", "m-1").requestSettings,
        "adapterVersion": ADAPTER_VERSION,
    }
    assert record["exercised"] == {"mode": "native", "turns": 3, "toolRound": True, "recall": True, "stream": stream}


@pytest.mark.parametrize(
    ("from_request", "turn"),
    [
        (2, r"turn 2 \(tool round, replaying [1-9]\d* stored provider items\) failed: PROVIDER_REJECTED: "),
        (3, r"turn 2 \(tool round, replaying [1-9]\d* stored provider items, after 1 function round\) failed: "),
        (4, r"turn 3 \(recall, replaying [1-9]\d* stored provider items\) failed: PROVIDER_REJECTED: "),
    ],
)
@pytest.mark.parametrize("kind", KINDS)
async def test_a_rejected_replayed_signature_fails_naming_the_turn(kind: str, from_request: int, turn: str) -> None:
    with tampering(FAKES[kind], from_request)(api_key=KEY) as fake:
        outcome = await qualify(_config(kind, fake), "live", "m-1")
    assert not outcome.passed
    assert outcome.failure is not None
    assert re.match(turn, outcome.failure), outcome.failure
    assert "PROVIDER_REJECTED" in outcome.failure
    failed = [t for t in outcome.reports if t.outcome == "failed"]
    assert len(failed) == 1 and failed[0].code == "PROVIDER_REJECTED"
    record = outcome.record()
    assert record["result"] == "failed"
    assert record["exercised"]["turns"] == failed[0].turn - 1
    assert record["exercised"]["recall"] is False


def _write(path: Path, document: dict[str, Any]) -> str:
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def test_the_command_prints_and_writes_the_record_where_it_says(
    fakes: dict[str, FakeUpstream], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    config = _write(tmp_path / "host.json", {"providers": [_entry("gemini", fakes["gemini"])]})
    assert cli.main(["qualify", "--config", config, "--provider", "live", "--model", "m-1"]) == 0
    out, err = capsys.readouterr()
    default = tmp_path / "qualification" / "live" / "m-1.json"
    assert json.loads(out) == json.loads(default.read_text(encoding="utf-8"))
    assert json.loads(out)["result"] == "passed"
    assert f"passed; record: {Path('qualification/live/m-1.json')}" in err
    assert "turn 3 (recall): accepted" in err
    chosen = tmp_path / "elsewhere.json"
    assert (
        cli.main(["qualify", "--config", config, "--provider", "live", "--model", "m-2", "--record", str(chosen)]) == 0
    )
    assert json.loads(chosen.read_text(encoding="utf-8"))["identity"]["model"] == "m-2"


def test_no_tool_round_sends_no_tools_and_says_so(
    fakes: dict[str, FakeUpstream], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = fakes["anthropic"]
    fake.reset()
    config = _write(tmp_path / "host.json", {"providers": [_entry("anthropic", fake)]})
    record = tmp_path / "r.json"
    command = ["qualify", "--config", config, "--provider", "live", "--model", "m-1", "--record", str(record)]
    assert cli.main([*command, "--no-tool-round"]) == 0
    written = json.loads(record.read_text(encoding="utf-8"))
    assert written["exercised"] == {"mode": "native", "turns": 2, "toolRound": False, "recall": True, "stream": True}
    assert [t["purpose"] for t in written["turns"]] == ["remember", "recall"]
    assert len(fake.requests) == 2 and not any("tools" in r.body for r in fake.requests)
    assert fake.requests[1].verified > 0


def test_the_command_fails_with_status_1_and_a_failed_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with tampering(AnthropicFake, 2)(api_key=KEY) as fake:
        config = _write(tmp_path / "host.json", {"providers": [_entry("anthropic", fake)]})
        record = tmp_path / "r.json"
        assert (
            cli.main(["qualify", "--config", config, "--provider", "live", "--model", "m-1", "--record", str(record)])
            == 1
        )
    _, err = capsys.readouterr()
    assert "FAILED: turn 2 (tool round" in err and "PROVIDER_REJECTED" in err
    assert json.loads(record.read_text(encoding="utf-8"))["result"] == "failed"


@pytest.mark.parametrize(
    ("provider", "model", "said"),
    [("nope", "m-1", "no provider instance 'nope'"), ("live", "m-9", "does not serve model 'm-9'")],
)
def test_nothing_to_qualify_is_status_2(
    fakes: dict[str, FakeUpstream],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    provider: str,
    model: str,
    said: str,
) -> None:
    config = _write(tmp_path / "host.json", {"providers": [_entry("gemini", fakes["gemini"])]})
    assert cli.main(["qualify", "--config", config, "--provider", provider, "--model", model]) == 2
    assert said in capsys.readouterr().err
    assert not (tmp_path / "qualification").exists()


async def test_a_history_only_or_unbound_instance_cannot_be_qualified(fakes: dict[str, FakeUpstream]) -> None:
    unbound = {name: value for name, value in _entry("gemini", fakes["gemini"]).items() if name != "accountId"}
    with pytest.raises(ValueError, match="no accountId"):
        await qualify(parse_config({"providers": [unbound]}), "live", "m-1")
    chat = {"id": "chat", "kind": "openai-chat", "accountId": "a", "models": ["m-1"], "baseUrl": "http://127.0.0.1:9"}
    with pytest.raises(ValueError, match="does not do native continuation"):
        await qualify(parse_config({"providers": [chat]}), "chat", "m-1")


async def test_a_host_that_requires_a_record_accepts_native_once_qualified(
    fakes: dict[str, FakeUpstream], tmp_path: Path
) -> None:
    config = _config(
        "openai-responses",
        fakes["openai-responses"],
        qualification={"recordDir": str(tmp_path)},
        sessions={"retentionMs": 60_000},
    )
    host = Driver.from_config(config)
    native = CreateSessionRequest(provider="live", model="m-1", mode="native")
    assert (await host.discovery()).providers[0].capabilities.nativeContinuation is False
    with pytest.raises(UnsupportedContinuation, match="needs a current qualification record: no record at"):
        await host.create_session(native)
    # The qualification itself runs although the host JSON requires a record it does not have yet.
    for model in ("m-1", "m-2"):
        outcome = await qualify(config, "live", model)
        assert outcome.passed, outcome.failure
        (tmp_path / "live").mkdir(exist_ok=True)
        record_path(tmp_path, "live", model).write_text(json.dumps(outcome.record()), encoding="utf-8")
    assert (await host.discovery()).providers[0].capabilities.nativeContinuation is True
    created = await host.create_session(native)
    assert created.session.mode == "native"
