"""A fast check of the harness itself: the statistics, the lanes, the load generator against a real
floor process for a handful of requests, and the ratio and target arithmetic on made-up results.

No benchmark runs here (``make bench`` does that); this stays well under ten seconds.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from harness import procstat, report, targets
from harness.httpclient import Request, encode_request
from harness.loadgen import Work, open_connections, run_phase
from harness.run import merge, turn_lanes
from harness.stats import percentile, ratio, summarize
from harness.targets import AgenticApi, LangGraphApi, Session

from agentic_driver.turns import log

# -- statistics ---------------------------------------------------------------------


def test_percentile_interpolates_linearly_between_closest_ranks() -> None:
    values = [float(v) for v in range(1, 11)]  # 1..10
    assert percentile(values, 0) == 1
    assert percentile(values, 100) == 10
    assert percentile(values, 50) == pytest.approx(5.5)
    assert percentile(values, 90) == pytest.approx(9.1)
    assert percentile(values, 99) == pytest.approx(9.91)
    assert percentile([7.0], 99) == 7
    assert math.isnan(percentile([], 50))
    with pytest.raises(ValueError):
        percentile(values, 101)


def test_summarize_reports_milliseconds_from_nanoseconds() -> None:
    summary = summarize([3_000_000, 1_000_000, 2_000_000])  # unsorted on purpose
    assert summary["count"] == 3
    assert summary["mean_ms"] == pytest.approx(2.0)
    assert summary["p50_ms"] == pytest.approx(2.0)
    assert summary["p90_ms"] == pytest.approx(2.8)
    assert summary["max_ms"] == pytest.approx(3.0)
    assert summarize([])["count"] == 0


def test_ratio_is_none_when_a_side_is_missing_or_not_positive() -> None:
    assert ratio(6.0, 3.0) == 2.0
    assert ratio(None, 3.0) is None
    assert ratio(1.0, 0.0) is None
    assert ratio(math.nan, 1.0) is None


# -- requests and lanes -------------------------------------------------------------------


def test_encoded_request_is_http11_with_length_and_headers() -> None:
    raw = encode_request(Request("POST", "/v1/runs", b'{"a":1}'), "127.0.0.1:9", {"Authorization": "Bearer t"})
    head, _, body = raw.partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0] == b"POST /v1/runs HTTP/1.1"
    assert b"Content-Length: 7" in head and b"Authorization: Bearer t" in head
    assert body == b'{"a":1}'


def test_turn_lanes_give_each_lane_its_own_sessions_and_the_exact_count() -> None:
    api = AgenticApi(token="t" * 16)
    pool = [Session(f"ses_{i}") for i in range(10)]
    lanes = turn_lanes(api, pool, 4, 22)
    assert sum(len(lane) for lane in lanes) == 22
    owners = [{orjson.loads(w.make().body)["session"]["id"] for w in lane} for lane in lanes]
    for i, mine in enumerate(owners):
        for other in owners[i + 1 :]:
            assert not mine & other
    with pytest.raises(ValueError):
        turn_lanes(api, pool[:2], 4, 8)


def test_peer_api_maps_sessions_to_threads() -> None:
    api = LangGraphApi()
    session = Session("t-1")
    turn = api.turn(session, "hi")
    assert turn.path == "/threads/t-1/runs/wait"
    assert orjson.loads(turn.body)["input"]["messages"] == [{"role": "user", "content": "hi"}]
    assert api.stream_turn(session, "hi").stream
    assert api.streaming_available({"paths": {"/threads/{thread_id}/runs/stream": {}}})
    assert not AgenticApi().streaming_available({"paths": {"/v1/runs": {}}})


# -- the load generator against a real (floor) server --------------------------------------------------


@pytest.fixture
def floor() -> Iterator[targets.RunningTarget]:
    running = targets.start(targets.floor_spec(), targets.BENCH / "results" / "logs", None)
    yield running
    running.stop()


async def test_load_generator_drives_a_floor_process_and_measures_it(floor: targets.RunningTarget) -> None:
    api = floor.spec.api
    connections = await open_connections("raw", "127.0.0.1", floor.port, api.headers, 4)
    made: list[Session] = []
    create = [Work(make=api.create, expect=201, done=lambda r: made.append(api.created(r))) for _ in range(8)]
    created = await run_phase("create", [create], server_pid=floor.pid, connections=connections)
    assert (created.requests, created.errors, len(made)) == (8, 0, 8)

    turns = await run_phase("turns", turn_lanes(api, made, 4, 24), server_pid=floor.pid, connections=connections)
    assert turns.errors == 0, turns.error_samples
    assert len(turns.latencies_ns) == 24 and all(ns > 0 for ns in turns.latencies_ns)
    assert sum(s.revision for s in made) == 24  # every revision the client tracked, the server agreed with
    assert turns.server_cpu_ns > 0 and turns.rss_after > 0 and turns.wall_s > 0
    data = turns.to_dict()
    assert data["latency"]["count"] == 24 and data["server_cpu_us_per_op"] > 0

    streamed = await run_phase(
        "stream", turn_lanes(api, made, 1, 3, stream=True), server_pid=floor.pid, connections=connections
    )
    assert streamed.errors == 0, streamed.error_samples
    assert len(streamed.first_event_ns) == 3
    assert all(0 < first <= total for first, total in zip(streamed.first_event_ns, streamed.latencies_ns, strict=True))

    stale = [Work(make=lambda: api.turn(Session(made[0].id, 0), "x"), expect=200)]
    refused = await run_phase("stale", [stale], server_pid=None, connections=connections)
    assert refused.errors == 1 and "409" in refused.error_samples[0]

    gone = [Work(make=lambda s=s: api.delete(s), expect=204) for s in made]
    deleted = await run_phase("delete", [gone], server_pid=floor.pid, connections=connections)
    assert deleted.errors == 0
    merged = merge("both", [turns, deleted])
    assert merged.requests == 32 and len(merged.latencies_ns) == 32
    await asyncio.gather(*(c.close() for c in connections))


def test_procstat_sees_this_process() -> None:
    here = procstat.sample(os.getpid())
    assert here.cpu_ns > 0 and here.rss_bytes > 0
    assert procstat.machine_busy_ns() > 0


# -- ratios and targets on made-up results ----------------------------------------------------------------


def _phase(cpu_us: float, p50: float, p99: float, n: int = 100, **extra: object) -> dict[str, object]:
    return {
        "requests": n,
        "errors": 0,
        "wall_s": 1.0,
        "server_cpu_ms": cpu_us * n / 1000,
        "server_cpu_us_per_op": cpu_us,
        "server_cpu_net_us_per_op": cpu_us,
        "throughput_rps": float(n),
        "latency": {"p50_ms": p50, "p90_ms": p99, "p99_ms": p99},
        "other_cpu_util": 0.0,
        **extra,
    }


def _target(cpu: float, p50: float, p99: float, full_cpu: float, startup: float, per_message: float) -> dict:
    phases = {name: _phase(cpu, p50, p99) for name in report.TURN_PHASES}
    phases |= {name: _phase(full_cpu, p50, p99) for name in report.FULL_TURN_PHASES}
    return {
        "available": True,
        "streaming": False,
        "startup_s": {"median": startup},
        "phases": phases,
        "memory": {"bytes_per_message": per_message, "bytes_per_turn": 2 * per_message, "encoded_message_bytes": 90},
    }


def test_goals_and_ratios_from_one_run() -> None:
    results = {
        "meta": {"provider_first_output_ms": 0.01, "machine": {"cpus": 2}},
        "targets": {
            "host": _target(cpu=300, p50=0.4, p99=3.0, full_cpu=320, startup=0.6, per_message=400),
            "floor": _target(cpu=100, p50=0.1, p99=2.0, full_cpu=100, startup=0.2, per_message=300),
            "peer": _target(cpu=6000, p50=1000, p99=1100, full_cpu=20000, startup=1.5, per_message=11000),
        },
    }
    computed = report.ratios(results)
    assert computed["turn_cpu_us"]["host/floor"] == pytest.approx(3.0)
    assert computed["turn_cpu_us"]["host/peer"] == pytest.approx(0.05)
    found = {g["goal"]: g["status"] for g in report.goals(results)}
    assert found == {
        "cpu_per_turn_vs_floor": "met",  # 3x <= 4x
        "cpu_per_turn_vs_peer": "met",  # 20x >= 15x
        "latency_c1_p50": "missed",  # 4x > 2x
        "latency_c1_p99": "met",  # 1.5x <= 3x
        "full_store_turn_cost": "met",  # 320 / 300 = 1.067 <= 1.10
        "memory_per_message": "met",  # 400 <= 2 * 90 + 256
        "stream_first_event": "not available",  # the host serves no stream route
        "startup": "met",  # 0.6 <= 0.2 + 0.5
    }
    assert "host/floor" in report.table(results) and "missed" in report.goals_table(results)

    results["targets"]["peer"] = {"available": False, "reason": "no network"}
    found = {g["goal"]: g["status"] for g in report.goals(results)}
    assert found["cpu_per_turn_vs_peer"] == "not available"
    assert "unavailable  peer: no network" in report.table(results)


def test_the_quick_probe_runs_host_and_floor_and_prints_their_ratios(capsys: pytest.CaptureFixture[str]) -> None:
    from harness import quick

    assert quick.main(["--rounds", "1"]) == 0

    printed = capsys.readouterr().out
    assert "host/floor c1" in printed and "host/floor c8" in printed


def test_the_tracing_probe_runs_off_and_on_and_prints_their_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    from harness import tracing

    assert tracing.main(["--rounds", "1"]) == 0  # raises when the traced host exported nothing

    printed = capsys.readouterr().out
    assert "on/off c1" in printed and "on/off c8" in printed and "off/baseline" not in printed


# -- the buffering section -----------------------------------------------------------------------------


def test_sse_answers_are_parsed_event_by_event_across_chunks() -> None:
    from harness.buffering import Answer

    async def feed() -> Answer:
        answer = Answer(0, asyncio.get_running_loop().create_future())
        for chunk in (
            b"id: 1\nevent: run.started\nda",
            b'ta: {"runId":"r"}\n\n: keep-alive\n\nid: 2\n',
            b"data: x\n\n",
        ):
            answer.feed(chunk)
        answer.finish()
        await answer.until(2)
        return answer

    answer = asyncio.run(feed())
    assert [(e.id, e.type, e.data) for e in answer.events] == [
        (1, "run.started", b'{"runId":"r"}'),
        (2, "message", b"x"),
    ]
    assert answer.last_id == 2 and answer.ended_ns > 0


def test_buffering_figures_from_made_up_phases() -> None:
    from harness import buffering

    def phase(rss: tuple[int, int], counted: tuple[int, int], kept: tuple[int, int], cpu: float) -> dict:
        return {
            "server_cpu_us_per_turn": cpu,
            "before": {"rss": rss[0], "run_event_bytes": counted[0], "runs_retained": kept[0]},
            "after": {"rss": rss[1], "run_event_bytes": counted[1], "runs_retained": kept[1]},
        }

    # 999 more kept runs (of 3 events) than keep1's grow RSS by 3,996,000 B (4,000 B each); replacing them by
    # runs of 35 events adds 3,196,800 B: 100 B per event. The gauge counts 3,000 and 7,000 B per run.
    section = {
        "counts": {"runs": 1000, "small": 1, "large": 33, "concurrency": 8, "rejoin_deltas": 16},
        "events_per_turn": {"small": 3, "large": 35},
        "phases": {
            "kept": {
                "small": phase((10_000_000, 14_996_000), (0, 3_000_000), (0, 1000), 300),
                "large": phase((15_000_000, 19_196_800), (3_000_000, 7_000_000), (1000, 1000), 600),
            },
            "keep1": {
                "small": phase((10_000_000, 11_000_000), (0, 3_000), (0, 1), 200),
                "large": phase((11_000_000, 12_000_000), (3_000, 7_000), (1, 1), 500),
            },
        },
        "rejoin": {
            "rounds": 2,
            "first_event": {name: summarize([1_000_000, 3_000_000]) for name in ("stream", "rejoin.live")}
            | {"rejoin.finished": summarize([500_000, 1_000_000])},
            "last_event": {name: summarize([2_000_000]) for name in ("stream", "rejoin.finished")},
            "events_replayed": {"rejoin.finished": 18, "rejoin.live": 10},
        },
    }
    derived = buffering.derive(section)
    assert derived["runs_kept"] == {"small": 999, "large": 999, "evicted": 999}
    assert derived["rss"]["per_run_small"] == pytest.approx(4_000)
    assert derived["rss"]["per_event"] == pytest.approx(100)
    assert derived["rss"]["per_run_beyond_events"] == pytest.approx(3_700)
    assert derived["counted"]["per_run_small"] == pytest.approx(3_000)
    assert derived["counted"]["per_run_large"] == pytest.approx(7_000)
    assert derived["rss_over_counted"]["per_event"] == pytest.approx(100 / 125)
    assert derived["cpu_kept_over_keep1"] == {"small": 1.5, "large": 1.2}
    assert derived["rejoin"]["rejoin.finished.p50"]["minus_stream_ms"] == pytest.approx(0.75 - 2.0)
    assert derived["rejoin"]["rejoin.live.p99"]["over_stream"] == pytest.approx(1.0)
    section["derived"] = derived

    results = {
        "targets": {
            "host": _target(cpu=250, p50=0.4, p99=3.0, full_cpu=250, startup=0.6, per_message=400),
            "floor": _target(cpu=100, p50=0.1, p99=2.0, full_cpu=100, startup=0.2, per_message=300),
        }
    }
    recorded = {"host_over_floor": 2.4, "spread": [2.06, 2.40], "started": "then"}
    cpu = buffering.compare_recorded(results, recorded)
    assert (cpu["status"], cpu["host_over_floor"]) == ("missed", pytest.approx(2.5))
    assert cpu["over_recorded"] == pytest.approx(2.5 / 2.4)
    printed = buffering.table(section, cpu)
    assert "per buffered event" in printed and "GET events, live run" in printed and "missed" in printed
    assert buffering.gauges(b"# HELP x\nagentic_driver_runs_retained 3.0\nagentic_driver_run_event_bytes 10\n") == {
        "runs_retained": 3.0,
        "run_event_bytes": 10.0,
    }


def test_the_buffering_section_runs_both_hosts_and_rejoins(tmp_path: pytest.TempPathFactory) -> None:
    from harness import buffering

    counts = buffering.Counts(
        sessions=8, runs=24, concurrency=4, warmup_turns=8, rounds=3, warmup_rounds=1, rejoin_deltas=6, live_deltas=4
    )
    section = buffering.measure(counts, server_cpus=None, log=lambda _: None)

    assert section["events_per_turn"] == {"small": 3, "large": 35}
    derived = section["derived"]
    # Warm-up's sessions were deleted (their runs with them): the kept host then keeps every measured run.
    assert derived["runs_kept"] == {"small": 23, "large": 23, "evicted": -1}  # beyond keep1's one
    assert section["phases"]["keep1"]["large"]["after"]["runs_retained"] == 1
    # What the host counts per run (turns/log.py): a start, an outcome and its output, a delta and its text.
    start, outcome, delta = log.STARTED_BYTES, log.OUTCOME_BYTES, log.DELTA_OVERHEAD_BYTES
    assert start + outcome + delta + 2 * 500 < derived["counted"]["per_run_small"] < start + outcome + delta + 2 * 600
    assert derived["counted"]["per_event"] == pytest.approx(128, abs=2)  # the same text in more deltas
    first = section["rejoin"]["first_event"]
    assert all(first[name]["count"] == 3 for name in ("stream", "rejoin.finished", "rejoin.live"))
    assert section["rejoin"]["events_replayed"] == {"rejoin.finished": 3 * 4, "rejoin.live": 3 * 3}
    assert "GET events, finished run" in buffering.table(section)


def test_the_snapshot_section_writes_and_restores_and_reports_its_ratios() -> None:
    from harness import snapshot

    lines: list[str] = []
    section = snapshot.measure(sessions=20, turns=3, rounds=2, log=lines.append)

    assert section["sessions"] == 20 and len(section["all_ms"]["restore"]) == 2
    assert section["file_bytes"] > section["encoded_bytes"] > 0
    assert 1.0 < section["ratios"]["file_over_encoded"] < 1.1  # the encoding, a tag, a header, idempotency: none
    assert "restart snapshot (per 20 sessions of 3 turns" in lines[-1]


# -- the instruction count's layer arithmetic (no valgrind here: made-up counts) ----------------------


def test_layer_costs_are_differences_of_the_variants_counts() -> None:
    from harness.instructions import Counted, layer_rows, report
    from harness.variants import VARIANTS

    def counted(name: str, c1: float, c8: float) -> Counted:
        return Counted(name, name, per_turn={1: c1, 8: c8})

    counts = {
        "host": counted("host", 1000.0, 1100.0),
        "floor": counted("floor", 400.0, 440.0),
        "bare": counted("bare", 100.0, 100.0),
        "no-observer": counted("no-observer", 970.0, 1060.0),  # removed: host - variant
        "decode-twice": counted("decode-twice", 1020.0, 1120.0),  # doubled: variant - host
        "stub-turn": counted("stub-turn", 400.0, 400.0),
        "no-metrics": counted("no-metrics", 990.0, 1090.0),  # a part of the turn: not counted twice in the rest
    }
    rows = dict(layer_rows(counts))
    assert rows["RequestObserver (request id, context, access line)"] == {1: 30.0, 8: 40.0}
    assert rows["JSON decode (strict, http/body.py)"] == {1: 20.0, 8: 20.0}
    assert rows["the driver's turn (Driver.run)"] == {1: 600.0, 8: 700.0}
    assert rows["  of which metric updates"] == {1: 10.0, 8: 10.0}
    rest = rows["rest of the host (endpoint glue, Request/Response objects, ...)"]
    assert rest == {1: 1000.0 - 100 - 30 - 20 - 600, 8: 1100.0 - 100 - 40 - 20 - 700}
    printed = report(counts)
    assert "2.50x" in printed  # host 1,050 against floor 420 on the mean of the two phases
    assert {"host", "stub-turn", "no-protocol-bounds"} <= set(VARIANTS)


async def test_the_jwt_lane_presents_a_token_the_host_json_accepts(tmp_path: Path) -> None:
    """The JWT section's host JSON is valid and its token is what the host verifies (no benchmark run)."""
    from harness import jwt

    from agentic_driver.bearer import BearerPolicy
    from agentic_driver.config import parse_config

    key = jwt._key()
    jwks_file = tmp_path / "jwks.json"
    jwks_file.write_text(json.dumps(jwt.jwks_of(key)))
    policy = BearerPolicy.from_config(parse_config(jwt.host_config(jwks_file)))
    assert (await policy.authenticate(jwt.jwt_token(key))).subject == "bench-app"
    assert (await policy.authenticate(jwt.STATIC)).subject == "bench"
