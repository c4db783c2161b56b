"""The restart snapshot: write and restore time and file size, against the sessions' own encoding.

    ../.venv/bin/python -m harness.snapshot            # this section alone -> results/snapshot.json

In process (the snapshot is written after the server has stopped and read before it starts, so no HTTP is
involved): one driver holds ``sessions`` native echo sessions of ``turns`` turns each. In alternating rounds, the
same run measures

- the **baseline**: encoding every session as its envelope (``envelope.export_record`` + ``orjson.dumps``,
  what an application exporting them would pay) and building every session back from those bytes
  (``orjson.loads`` + ``envelope.record_of``);
- **write**: ``snapshot.write_after_drain`` (the same encoding plus idempotency records, AES-256-GCM, fsync,
  rename);
- **restore**: ``snapshot.restore_at_start`` into a fresh driver (decrypt, build, checks, store, delete).

and reports medians and the ratios write/encode, restore/build and file bytes/encoded bytes (expected close
to 1x: the file is the encoding plus a 16-byte tag and a short header).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import orjson

from agentic_driver import Driver, EchoProvider, SessionsConfig, envelope
from agentic_driver.config import SnapshotConfig
from agentic_driver.models import CreateSessionRequest, RunRequest, SessionHandle
from agentic_driver.snapshot import restore_at_start, write_after_drain

RESULTS = Path(__file__).resolve().parent.parent / "results"
SESSIONS = 1_000
TURNS = 10
ROUNDS = 5
KEY = secrets.token_bytes(32)


def _driver(provider: EchoProvider) -> Driver:
    return Driver([provider], host_id="bench", sessions=SessionsConfig(retentionMs=3_600_000))


async def _fill(driver: Driver, sessions: int, turns: int) -> None:
    for index in range(sessions):
        request = CreateSessionRequest(provider="echo", model="echo-1", mode="native", instructions=f"Bench {index}.")
        info = (await driver.create_session(request)).session
        for turn in range(turns):
            handle = SessionHandle(id=info.id, revision=info.revision)
            text = f"turn {turn} of session {index}: a sentence of ordinary length for a chat."
            result = await driver.run(RunRequest(provider="echo", model="echo-1", input=text, session=handle))
            assert result.session is not None
            info = result.session


def _timed(action: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    started = time.perf_counter()
    value = action(*args)
    return (time.perf_counter() - started) * 1000, value


def _encode(records: list[Any]) -> bytes:
    return orjson.dumps([envelope.export_record(record, True, "echo") for record in records])


def _build(encoded: bytes) -> list[Any]:
    return [envelope.record_of(data, "local") for data in orjson.loads(encoded)]


def _round(source: Driver, provider: EchoProvider, config: SnapshotConfig, records: list[Any]) -> dict[str, Any]:
    """One round of the four phases: their times (ms) and the two sizes."""
    times: dict[str, Any] = {}
    times["encode"], encoded = _timed(_encode, records)
    times["build"], _ = _timed(_build, encoded)
    times["write"], written = _timed(write_after_drain, source, config, KEY)
    times["restore"], restored = _timed(restore_at_start, _driver(provider), config, KEY)
    assert restored is not None and restored.sessions == len(records), restored
    return {"times": times, "encoded_bytes": len(encoded), "file_bytes": written.bytes}


def measure(
    sessions: int = SESSIONS, turns: int = TURNS, rounds: int = ROUNDS, log: Callable[[str], None] = print
) -> dict[str, Any]:
    provider = EchoProvider(id="echo", models=("echo-1",), account_id="bench")
    source = _driver(provider)
    started = time.perf_counter()
    asyncio.run(_fill(source, sessions, turns))
    log(f"  {sessions} sessions of {turns} turns built in {time.perf_counter() - started:.1f} s")
    assert source.store is not None
    records = source.store.records()
    phases: dict[str, list[float]] = {"encode": [], "build": [], "write": [], "restore": []}
    with tempfile.TemporaryDirectory() as directory:
        config = SnapshotConfig(path=str(Path(directory) / "bench.snapshot"), keyEnv="UNUSED")
        for _ in range(rounds):
            measured = _round(source, provider, config, records)
            for name, ms in measured["times"].items():
                phases[name].append(ms)
    medians = {name: statistics.median(values) for name, values in phases.items()}
    section = {
        "sessions": sessions,
        "turns": turns,
        "rounds": rounds,
        "median_ms": medians,
        "all_ms": phases,
        "encoded_bytes": measured["encoded_bytes"],
        "file_bytes": measured["file_bytes"],
        "ratios": {
            "write_over_encode": medians["write"] / medians["encode"],
            "restore_over_build": medians["restore"] / medians["build"],
            "file_over_encoded": measured["file_bytes"] / measured["encoded_bytes"],
        },
    }
    log(table(section))
    return section


def table(section: dict[str, Any]) -> str:
    medians, ratios = section["median_ms"], section["ratios"]
    per = f"per {section['sessions']} sessions of {section['turns']} turns, median of {section['rounds']} rounds"
    return "\n".join(
        [
            f"restart snapshot ({per}):",
            f"  write    {medians['write']:8.1f} ms   encode envelopes {medians['encode']:8.1f} ms   "
            f"{ratios['write_over_encode']:.2f}x",
            f"  restore  {medians['restore']:8.1f} ms   build from them  {medians['build']:8.1f} ms   "
            f"{ratios['restore_over_build']:.2f}x",
            f"  file     {section['file_bytes']:10,d} B  encoded          {section['encoded_bytes']:10,d} B   "
            f"{ratios['file_over_encoded']:.4f}x",
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.snapshot", description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(RESULTS / "snapshot.json"))
    parser.add_argument("--sessions", type=int, default=SESSIONS)
    parser.add_argument("--turns", type=int, default=TURNS)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    options = parser.parse_args(argv)
    section = measure(options.sessions, options.turns, options.rounds)
    out = Path(options.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    meta = {"started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    out.write_text(json.dumps({"meta": meta, "snapshot": section}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
