"""A rolling restart behind the generated HAProxy config loses no session (host JSON ``sessions.snapshot``).

Two hosts, each restarted in turn (SIGTERM, then started again with the same ``--host-id``, address and
snapshot file) while Python SDK clients play turns on sessions of both. The only errors the clients meet are
the ones they already retry (``SHUTTING_DOWN``, ``HOST_UNAVAILABLE``), and afterwards every session holds
every turn its client saw succeed, at the revision it last saw, native signatures verifying.
"""

from __future__ import annotations

import secrets
import signal
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentic_driver_sdk import AgenticDriver, APIStatusError
from e2e.conftest import ALICE, launch_host

from .conftest import Cluster, cluster_config, routed_to

KEY_ENV = "AGENTIC_DRIVER_TEST_SNAPSHOT_KEY"
PLAYERS = 4
SESSIONS_PER_PLAYER = 4
EXIT_WITHIN_S = 30.0
ROUTED_WITHIN_S = 30.0
RETRIED = {"SHUTTING_DOWN", "HOST_UNAVAILABLE"}
MAX_TURNS = 40
"""Turns a session holds before its player truncates it (the cluster config keeps 100 messages)."""


@dataclass
class Player:
    """One application thread: its sessions, the turns it saw succeed, every error it met."""

    client: AgenticDriver
    sessions: list[Any] = field(default_factory=list)
    turns: Counter[str] = field(default_factory=Counter)
    """The turns each session holds now, as its player last saw it."""
    errors: Counter[str] = field(default_factory=Counter)
    played: int = 0

    def play(self, stop: threading.Event) -> None:
        index = 0
        while not stop.is_set():
            slot = index % len(self.sessions)
            index += 1
            try:
                self._step(slot)
            except APIStatusError as error:
                code = getattr(error, "code", None) or f"status {error.status_code}"
                self.errors[code] += 1
                if code not in RETRIED:
                    raise
                stop.wait(0.2)  # the application waits a moment and plays the same step again
                continue
            stop.wait(0.01)

    def _step(self, slot: int) -> None:
        """One turn of the session in ``slot``; a session near ``maxMessages`` is truncated to nothing first."""
        session = self.sessions[slot]
        held = self.turns[session.id]
        if held >= MAX_TURNS:
            self.sessions[slot] = self.client.sessions.truncate(session, keep_turns=0)
            self.turns[session.id] = 0
            return
        text = "!recall" if held % 3 == 2 else f"turn {held}"
        result = self.client.run(provider="echo", model="echo-1", input=text, session=session)
        self.sessions[slot] = result.session
        self.turns[session.id] += 1
        self.played += 1


def restart(
    cluster: Cluster, host_id: str, config: dict[str, Any], workdir: Path, env: dict[str, str]
) -> dict[str, Any]:
    """SIGTERM the host, wait for its clean exit, start it again on its address, wait until HAProxy routes to it;
    what its ``/readyz`` says it restored."""
    old = cluster.hosts[host_id]
    port = int(old.base_url.rsplit(":", 1)[1])
    old.process.send_signal(signal.SIGTERM)
    assert old.process.wait(timeout=EXIT_WITHIN_S) == 0, old.log_text()[-2000:]
    assert (workdir / f"{host_id}.snapshot").exists()
    again = launch_host(f"{host_id}-again", config, workdir, env=env, args=("--host-id", host_id), port=port)
    cluster.hosts[host_id] = again
    with again.raw() as direct:
        restored: dict[str, Any] = direct.get("/readyz").json()["restored"]
    with cluster.http() as http:
        deadline = time.monotonic() + ROUTED_WITHIN_S
        while not routed_to(http, host_id):
            assert time.monotonic() < deadline, f"HAProxy never routed to {host_id} again"
            time.sleep(0.1)
    return restored


def test_a_rolling_restart_of_two_hosts_loses_no_session(make_cluster: Any, tmp_path: Path) -> None:
    config = cluster_config(drain_timeout_ms=10_000)
    config["sessions"]["snapshot"] = {"path": str(tmp_path / "{hostId}.snapshot"), "keyEnv": KEY_ENV}
    env = {KEY_ENV: secrets.token_hex(32)}
    cluster = make_cluster(["roll-a", "roll-b"], config, env)
    players = [Player(AgenticDriver(base_url=cluster.url, token=ALICE, timeout=30)) for _ in range(PLAYERS)]
    for player in players:
        for index in range(SESSIONS_PER_PLAYER):
            mode = "native" if index % 2 else "history"
            player.sessions.append(player.client.sessions.create(provider="echo", model="echo-1", mode=mode))
    owners = Counter(session.host_id for player in players for session in player.sessions)
    assert set(owners) == {"roll-a", "roll-b"}, owners  # new sessions are balanced over both hosts

    stop = threading.Event()
    failures: list[BaseException] = []

    def run(player: Player) -> None:
        try:
            player.play(stop)
        except BaseException as error:  # recorded for the main thread, which fails the test with it
            failures.append(error)

    threads = [threading.Thread(target=run, args=(player,), daemon=True) for player in players]
    for thread in threads:
        thread.start()
    restored = {}
    try:
        for host_id in ("roll-a", "roll-b"):
            before = sum(player.played for player in players)
            restored[host_id] = restart(cluster, host_id, config, tmp_path, env)
            _wait_for_turns(players, before + 2 * PLAYERS, failures)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    assert not failures, failures

    errors = sum((player.errors for player in players), Counter())
    assert set(errors) <= RETRIED, errors
    for player in players:
        for session in player.sessions:
            read = player.client.sessions.read(session.id)
            assert read.session.revision == session.revision, session.id
            assert len(read.history) == 2 * player.turns[session.id]
        player.client.close()
    for host_id, report in restored.items():
        assert report["sessions"] == owners[host_id] and sum(report["dropped"].values()) == 0, report


def _wait_for_turns(players: list[Player], count: int, failures: list[BaseException]) -> None:
    """Until the players together have seen ``count`` turns succeed (bounded), so each restart meets traffic."""
    deadline = time.monotonic() + 60
    while sum(player.played for player in players) < count:
        assert not failures, failures
        assert time.monotonic() < deadline, "the players made no progress after the restart"
        time.sleep(0.05)
