"""A server's own CPU and memory accounting, read from /proc (Linux).

CPU is the sum over the process tree (the server and any children it started)
of every thread's on-CPU time from ``/proc/<pid>/task/<tid>/schedstat``
(nanoseconds); ``/proc/<pid>/stat`` utime+stime (clock ticks, 10 ms) is kept
beside it as a cross-check and is the fallback where schedstat is missing.
Memory is the tree's resident set size (``VmRSS``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ProcSample", "descendants", "machine_busy_ns", "sample"]

_TICK_NS = 1_000_000_000 // os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True, slots=True)
class ProcSample:
    cpu_ns: int
    """On-CPU time of the tree's live threads (schedstat), or the stat figure where schedstat is missing."""
    stat_cpu_ns: int
    """utime + stime of the tree's processes (includes threads that already exited), at tick resolution."""
    rss_bytes: int


def descendants(pid: int) -> list[int]:
    """``pid`` and every live process below it."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            fields = _stat_fields(Path(entry.path) / "stat")
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    tree, frontier = [pid], [pid]
    while frontier:
        found = children.get(frontier.pop(), [])
        tree.extend(found)
        frontier.extend(found)
    return tree


def _stat_fields(path: Path) -> list[str]:
    """Fields of a /proc stat file after the command name, which may itself hold spaces: [state, ppid, ...]."""
    text = path.read_text()
    return text[text.rindex(")") + 2 :].split()


def _schedstat_ns(pid: int) -> int | None:
    total = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    for tid in tasks:
        try:
            total += int(Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None
    return total


def _rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def sample(pid: int, *, tree: bool = True) -> ProcSample:
    """CPU and RSS of ``pid`` (and, with ``tree``, every process below it) right now."""
    pids = descendants(pid) if tree else [pid]
    cpu = stat_cpu = rss = 0
    schedstat_ok = True
    for each in pids:
        try:
            fields = _stat_fields(Path(f"/proc/{each}/stat"))
            stat_cpu += (int(fields[11]) + int(fields[12])) * _TICK_NS  # utime, stime
            rss += _rss_bytes(each)
            ns = _schedstat_ns(each)
        except OSError:  # exited between the listing and the read
            continue
        if ns is None:
            schedstat_ok = False
        else:
            cpu += ns
    return ProcSample(cpu_ns=cpu if schedstat_ok else stat_cpu, stat_cpu_ns=stat_cpu, rss_bytes=rss)


def machine_busy_ns() -> int:
    """Busy (non-idle, non-iowait) time of all CPUs since boot, from the first line of /proc/stat."""
    with open("/proc/stat") as stat:
        fields = [int(v) for v in stat.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    busy = sum(fields[:8]) - idle  # user nice system idle iowait irq softirq steal; guest is inside user
    return busy * _TICK_NS
