#!/usr/bin/env python3
"""Run make's test stages in parallel lanes: `make test` on this two-core machine in about half the time.

    python3 .ci/lanes.py --lane "check-generated lint test-python" --lane "contract test-kit" [--serial]

Each lane runs its stages one after another (`make STAGE`), the lanes run at once. A stage's output goes to
reports/stages/STAGE.log and is printed whole when the stage ends, so the log reads stage by stage as `make`
alone would print it. The first failure stops every lane from starting another stage (the running ones finish),
and the run exits non-zero. At the end a table gives each stage's lane, result and wall time, also written to
reports/stages/stages.json.

Stages that share state belong in one lane: the set-up stamps are built before the lanes start (`make
setup-test`), so no two lanes install into .venv at once; whatever else two stages share is the Makefile's
lane lists' business (see TEST_LANES there).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "reports" / "stages"


@dataclass
class Outcome:
    stage: str
    lane: int
    passed: bool | None  # None: not started because an earlier stage failed
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # user + system of the stage and every process it waited for


class Lanes:
    """The lanes' shared state: whether to go on, the printed log, and every stage's outcome."""

    def __init__(self, make: str) -> None:
        self.make = make
        self.failed = threading.Event()
        self.print_lock = threading.Lock()
        self.outcomes: list[Outcome] = []
        self.running: set[subprocess.Popen[bytes]] = set()

    def say(self, text: str) -> None:
        with self.print_lock:
            sys.stdout.write(text)
            sys.stdout.flush()

    def run_stage(self, stage: str, lane: int) -> Outcome:
        log_path = LOGS / f"{stage}.log"
        started = time.monotonic()
        self.say(f"[lane {lane}] {stage} ...\n")
        with log_path.open("wb") as log:
            # A session of its own, so that an interrupted run can stop the stage and every process it started.
            process = subprocess.Popen(
                [self.make, "--no-print-directory", stage],
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            self.running.add(process)
            # os.wait4 instead of wait(): its rusage is this stage's own CPU time, whatever runs beside it.
            _, status, usage = os.wait4(process.pid, 0)
            process.returncode = code = os.waitstatus_to_exitcode(status)
            self.running.discard(process)
        seconds = time.monotonic() - started
        cpu_seconds = usage.ru_utime + usage.ru_stime
        verdict = "passed" if code == 0 else f"FAILED (exit {code})"
        body = log_path.read_text(encoding="utf-8", errors="replace")
        timing = f"{seconds:.0f} s ({cpu_seconds:.0f} s CPU)"
        self.say(f"\n===== [lane {lane}] {stage}: {verdict} in {timing} =====\n{body}\n")
        return Outcome(stage, lane, code == 0, round(seconds, 1), round(cpu_seconds, 1))

    def run_lane(self, stages: list[str], lane: int) -> None:
        for stage in stages:
            if self.failed.is_set():
                self.outcomes.append(Outcome(stage, lane, None))
                continue
            outcome = self.run_stage(stage, lane)
            self.outcomes.append(outcome)
            if not outcome.passed:
                self.failed.set()

    def stop_running(self) -> None:
        for process in list(self.running):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)


def summary(outcomes: list[Outcome], wall: float) -> str:
    rows = [f"{'stage':<22} {'lane':>4}  {'result':<8} {'seconds':>8} {'CPU s':>8}"]
    for outcome in outcomes:
        result = {True: "passed", False: "FAILED", None: "not run"}[outcome.passed]
        rows.append(
            f"{outcome.stage:<22} {outcome.lane:>4}  {result:<8} {outcome.seconds:>8.0f} {outcome.cpu_seconds:>8.0f}"
        )
    busy = sum(outcome.seconds for outcome in outcomes)
    cpu = sum(outcome.cpu_seconds for outcome in outcomes)
    rows.append(f"wall {wall:.0f} s for {busy:.0f} s of stages and {cpu:.0f} s of CPU")
    failed = [outcome.stage for outcome in outcomes if outcome.passed is False]
    rows += [f"FAILED: {stage} (its whole log: reports/stages/{stage}.log)" for stage in failed]
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lane", action="append", required=True, help="the stages of one lane, space-separated")
    parser.add_argument("--serial", action="store_true", help="one lane after the other (for a busy machine)")
    parser.add_argument("--make", default=os.environ.get("MAKE", "make"))
    options = parser.parse_args()
    lanes_stages = [lane.split() for lane in options.lane]
    if options.serial:
        lanes_stages = [[stage for lane in lanes_stages for stage in lane]]
    LOGS.mkdir(parents=True, exist_ok=True)
    lanes = Lanes(options.make)
    started = time.monotonic()
    threads = [
        threading.Thread(target=lanes.run_lane, args=(stages, number), daemon=True)
        for number, stages in enumerate(lanes_stages, start=1)
    ]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    except KeyboardInterrupt:
        lanes.stop_running()
        return 130
    wall = time.monotonic() - started
    table = summary(lanes.outcomes, wall)
    (LOGS / "stages.json").write_text(
        json.dumps({"wallSeconds": round(wall, 1), "stages": [asdict(o) for o in lanes.outcomes]}, indent=2) + "\n"
    )
    print(f"\n{table}")
    return 1 if lanes.failed.is_set() else 0


if __name__ == "__main__":
    sys.exit(main())
