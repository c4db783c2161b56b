"""What docs/cluster.md promises under faults, with real host processes behind the generated HAProxy config.

(a) A host killed (SIGKILL) with requests in flight: a turn in flight on a connection whose first request it
    was gets the ``HOST_UNAVAILABLE`` problem naming the host; one in flight on a kept-alive connection (an
    earlier request went first) gets its connection closed with no answer at all, which HAProxy does on
    purpose (the client is to retry: the Python client does, and then raises the problem); the next request
    on any kept-alive connection gets the problem at once; a stream already started is cut, never turned into
    a problem.
(b) A drain with ``limits.drainReadWindowMs``: after the drain, the host's sessions are still read through the
    proxy, their new turns refused (``SHUTTING_DOWN``), new work goes to the other host, a stateless run it
    admitted before the signal completes (the pool does not cut it), and it exits after the window. Without
    the window an idle host exits at once and its sessions answer ``HOST_UNAVAILABLE``.
(c) A host that hangs (SIGSTOP): its requests (a JSON turn, a stream, a stateless run) end within seconds,
    while a silent 8 s JSON turn and a heartbeating stream on the other host are not cut; resumed, it is back
    and the turn it held was not run again (its session is interrupted, reason ``disconnected``).

Timing bounds are generous (the machine is shared); the measured figures are printed (``-s``) and recorded
in docs/cluster.md (*When a node dies*).
"""

from __future__ import annotations

import json
import signal
import socket
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from agentic_driver_sdk import AgenticDriver, HostUnavailableError
from e2e.conftest import ALICE

from agentic_driver.ids import owner_of

from .conftest import HOST_HEADER, Cluster, cluster_config, hung

ECHO = {"provider": "echo", "model": "echo-1"}
ANSWER_BOUND_S = 5.0
"""A request to a dead host is answered (or its connection closed) within this (measured: milliseconds)."""
HUNG_BOUND_S = 8.0
"""A hung host's requests end within this of the hang (measured: 1 to 3 s: two health checks unanswered for
1 s each mark it down, and the proxy then ends what it holds)."""
EXIT_BOUND_S = 15.0


# -- HTTP/1.1 on raw sockets, so that which request is first on which connection is the test's choice -----------


@pytest.fixture
def sockets() -> Iterator[list[socket.socket]]:
    """The test's raw connections to the proxy, closed at teardown."""
    opened: list[socket.socket] = []
    yield opened
    for sock in opened:
        sock.close()


def connect(cluster: Cluster, sockets: list[socket.socket]) -> socket.socket:
    host, port = cluster.url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=ANSWER_BOUND_S)
    sockets.append(sock)
    return sock


def send(sock: socket.socket, method: str, path: str, owner: str | None, body: dict[str, Any] | None = None) -> None:
    payload = b"" if body is None else json.dumps(body).encode()
    head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Authorization: Bearer {ALICE}"]
    if owner is not None:
        head.append(f"{HOST_HEADER}: {owner}")
    if body is not None:
        head += ["Content-Type: application/json", f"Content-Length: {len(payload)}"]
    sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode() + payload)


def receive(sock: socket.socket, timeout_s: float) -> tuple[int, dict[str, str], bytes] | None:
    """One response with a Content-Length body, or None when the connection closed before any byte of one."""
    sock.settimeout(timeout_s)
    data = b""
    while True:
        if b"\r\n\r\n" in data:
            head, _, rest = data.partition(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
            length = int(headers.get("content-length", "-1"))
            if 0 <= length <= len(rest):
                return int(lines[0].split()[1]), headers, rest[:length]
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            assert not data, f"the connection closed in the middle of a response: {data!r}"
            return None
        data += chunk


def timed_receive(
    sock: socket.socket, timeout_s: float, since: float
) -> tuple[tuple[int, dict[str, str], bytes] | None, float]:
    answer = receive(sock, timeout_s)
    return answer, time.monotonic() - since


def read_until_closed(sock: socket.socket, timeout_s: float, data: bytes = b"") -> bytes:
    sock.settimeout(timeout_s)
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return data
        if not chunk:
            return data
        data += chunk


def read_until(sock: socket.socket, marker: bytes, timeout_s: float) -> bytes:
    sock.settimeout(timeout_s)
    data = b""
    while marker not in data:
        chunk = sock.recv(65536)
        assert chunk, f"closed before {marker!r}: {data!r}"
        data += chunk
    return data


def host_unavailable(answer: tuple[int, dict[str, str], bytes] | None, owner: str | None) -> bool:
    if answer is None:
        return False
    status, headers, body = answer
    problem = json.loads(body)
    return (
        status == 503
        and headers.get("retry-after") == "1"
        and headers.get("content-type") == "application/problem+json"
        and problem["code"] == "HOST_UNAVAILABLE"
        and problem.get("ownerHostId") == owner
    )


# -- helpers through httpx ------------------------------------------------------------------------------------


def session_on(http: httpx.Client, host_id: str) -> dict[str, Any]:
    """A new session on ``host_id`` (the header routes the creation to that host's backend)."""
    created = http.post("/v1/sessions", json={**ECHO, "mode": "history"}, headers={HOST_HEADER: host_id})
    assert created.status_code == 201, created.text
    session: dict[str, Any] = created.json()["session"]
    assert owner_of(session["id"]) == host_id
    return session


def turn(session: dict[str, Any], text: str, **extra: Any) -> dict[str, Any]:
    return {**ECHO, "input": text, "session": {"id": session["id"], "revision": session["revision"]}, **extra}


def wait_for_status(http: httpx.Client, session_id: str, status: str, bound_s: float = 10.0) -> dict[str, Any]:
    deadline = time.monotonic() + bound_s
    while time.monotonic() < deadline:
        read = http.get(f"/v1/sessions/{session_id}")
        if read.status_code == 200 and read.json()["session"]["status"] == status:
            return dict(read.json())
        time.sleep(0.02)
    raise AssertionError(f"session {session_id} never became {status}")


def is_cut_stream(raw: bytes) -> bool:
    """A 200 event stream whose body ended without its last chunk (and without a final event)."""
    return raw.startswith(b"HTTP/1.1 200") and not raw.endswith(b"0\r\n\r\n") and b"run.completed" not in raw


# -- (a) a host killed with requests in flight ----------------------------------------------------------------


def test_a_killed_hosts_requests_get_host_unavailable_but_one_in_flight_on_a_kept_alive_connection_is_closed(
    make_cluster: Any,
    sockets: list[socket.socket],
) -> None:
    cluster: Cluster = make_cluster(["dead-a", "dead-b"])
    victim = cluster.hosts["dead-a"]
    with cluster.http(route=True) as http:
        first_on_fresh, after_another, for_idle, streamed = (session_on(http, "dead-a") for _ in range(4))
        fresh = connect(cluster, sockets)  # the turn is this connection's first request
        send(fresh, "POST", "/v1/runs", "dead-a", turn(first_on_fresh, "!sleep 30000\nnever"))
        kept = connect(cluster, sockets)  # the turn follows another request on the same connection
        send(kept, "GET", "/v1/discovery", "dead-a")
        assert receive(kept, ANSWER_BOUND_S) is not None
        send(kept, "POST", "/v1/runs", "dead-a", turn(after_another, "!sleep 30000\nnever"))
        idle = connect(cluster, sockets)  # kept alive, idle when the host dies
        send(idle, "GET", f"/v1/sessions/{for_idle['id']}", "dead-a")
        assert receive(idle, ANSWER_BOUND_S) is not None
        stream = connect(cluster, sockets)
        send(stream, "POST", "/v1/runs/stream", "dead-a", turn(streamed, "!sleep 30000\nnever"))
        started = read_until(stream, b"run.started", ANSWER_BOUND_S)
        for session in (first_on_fresh, after_another):
            wait_for_status(http, session["id"], "running")

        victim.process.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        victim.process.wait(timeout=ANSWER_BOUND_S)

        on_fresh = receive(fresh, ANSWER_BOUND_S)
        fresh_after = time.monotonic() - killed
        on_kept = receive(kept, ANSWER_BOUND_S)
        kept_after = time.monotonic() - killed
        cut = read_until_closed(stream, ANSWER_BOUND_S, started)
        sent = time.monotonic()
        send(idle, "GET", f"/v1/sessions/{for_idle['id']}", "dead-a")
        on_idle = receive(idle, ANSWER_BOUND_S)
        idle_took = time.monotonic() - sent

    assert host_unavailable(on_fresh, "dead-a"), on_fresh
    assert on_kept is None  # HAProxy closes it with no answer: the client is to retry (see the next test)
    assert is_cut_stream(cut), cut[-300:]
    assert b"HOST_UNAVAILABLE" not in cut  # a stream already started cannot become a problem
    assert host_unavailable(on_idle, "dead-a"), on_idle
    assert max(fresh_after, kept_after, idle_took) < ANSWER_BOUND_S
    print(
        f"\nSIGKILL: in-flight turn on a fresh connection: HOST_UNAVAILABLE after {fresh_after * 1000:.0f} ms; "
        f"on a kept-alive one: closed after {kept_after * 1000:.0f} ms; next request on a kept-alive connection: "
        f"HOST_UNAVAILABLE in {idle_took * 1000:.0f} ms"
    )


def test_the_python_client_raises_host_unavailable_for_its_turn_in_flight_on_a_kept_alive_connection(
    make_cluster: Any,
) -> None:
    cluster: Cluster = make_cluster(["sdk-a", "sdk-b"])
    victim = cluster.hosts["sdk-a"]
    with cluster.http(route=True) as http:
        session = session_on(http, "sdk-a")
        client = AgenticDriver(base_url=cluster.url, token=ALICE, max_retries=2)
        try:
            client.sessions.read(session["id"])  # the client's connection to the proxy is now kept alive
            with ThreadPoolExecutor(max_workers=1) as pool:
                handle = {"id": session["id"], "revision": 0}
                running: Future[Any] = pool.submit(
                    lambda: client.run(provider="echo", model="echo-1", input="!sleep 30000\nnever", session=handle)
                )
                wait_for_status(http, session["id"], "running")
                victim.process.send_signal(signal.SIGKILL)
                killed = time.monotonic()
                try:
                    running.result(timeout=30)
                except HostUnavailableError as error:
                    raised, took = error, time.monotonic() - killed
                else:
                    raise AssertionError("the turn succeeded on a killed host")
        finally:
            client.close()
    assert raised.owner_host_id == "sdk-a"
    assert took < 15, took  # the closed connection, then HOST_UNAVAILABLE twice, one second apart
    print(f"\nPython client: HostUnavailableError (ownerHostId sdk-a) {took:.2f} s after SIGKILL")


# -- (b) the drain's read window through the proxy -------------------------------------------------------------


def test_a_draining_host_with_a_read_window_is_read_through_the_proxy_until_it_exits(
    make_cluster: Any, sockets: list[socket.socket]
) -> None:
    window_ms = 3_000
    config = cluster_config(drain_timeout_ms=10_000)
    config["limits"]["drainReadWindowMs"] = window_ms
    cluster: Cluster = make_cluster(["win-a", "win-b"], config)
    leaving = cluster.hosts["win-a"]
    with cluster.http(route=True) as http:
        session = session_on(http, "win-a")
        done = http.post("/v1/runs", json=turn(session, "Remember me"))
        assert done.status_code == 200, done.text
        session = done.json()["session"]
        # Stateless streamed runs through the pool, without a key: round-robin, so one is admitted on each host.
        stateless = []
        for _ in range(2):
            sock = connect(cluster, sockets)
            send(sock, "POST", "/v1/runs/stream", None, {**ECHO, "input": "!sleep 1500\nkept"})
            stateless.append((sock, read_until(sock, b"run.started", ANSWER_BOUND_S)))

        leaving.process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        reads: list[tuple[float, int, str]] = []  # (s after SIGTERM, status, code or "")
        refused_turn: dict[str, Any] | None = None
        moved = False
        while leaving.process.poll() is None and time.monotonic() - signalled < window_ms / 1000 + EXIT_BOUND_S:
            try:
                read = http.get(f"/v1/sessions/{session['id']}")
            except httpx.TransportError:  # at the instant it exits, a kept-alive connection may be closed
                reads.append((time.monotonic() - signalled, 0, "closed"))
                continue
            reads.append((time.monotonic() - signalled, read.status_code, read.json().get("code", "")))
            if refused_turn is None and read.status_code == 200:
                answer = http.post("/v1/runs", json=turn(session, "Carry on here"))
                if answer.status_code == 503:
                    refused_turn = answer.json()
            if not moved:
                created = http.post("/v1/sessions", json={**ECHO, "mode": "history"})
                moved = created.status_code == 201 and owner_of(created.json()["session"]["id"]) == "win-b"
            time.sleep(0.05)
        exit_code = leaving.process.wait(timeout=EXIT_BOUND_S)
        exited = time.monotonic() - signalled
        finished = [read_until_closed(sock, EXIT_BOUND_S, data) for sock, data in stateless]
        deadline = time.monotonic() + ANSWER_BOUND_S
        while True:
            gone = http.get(f"/v1/sessions/{session['id']}")
            if gone.json().get("code") == "HOST_UNAVAILABLE" or time.monotonic() > deadline:
                break
            time.sleep(0.02)

    assert exit_code == 0
    assert exited >= window_ms / 1000, exited  # the window comes after the drain, never instead of it
    served = [at for at, status, _ in reads if status == 200]
    assert served and max(served) >= window_ms / 1000 - 1.0, reads  # read through the proxy during the window
    assert {code for _, status, code in reads if status != 200} <= {"HOST_UNAVAILABLE", "closed"}, reads
    assert refused_turn is not None and refused_turn["code"] == "SHUTTING_DOWN"
    assert moved  # new work went to the other host
    # The pool did not cut the stream the draining host had admitted: both ran to their end.
    assert all(raw.endswith(b"0\r\n\r\n") and b'"type":"run.completed"' in raw for raw in finished), finished
    owners = {owner_of(json.loads(raw.split(b"data: ", 1)[1].split(b"\n", 1)[0])["runId"]) for raw in finished}
    assert owners == {"win-a", "win-b"}, finished
    assert (gone.status_code, gone.json()["code"], gone.json()["ownerHostId"]) == (503, "HOST_UNAVAILABLE", "win-a")
    print(
        f"\nread window {window_ms} ms: last read served {max(served):.2f} s after SIGTERM, exit after {exited:.2f} s"
    )


def test_without_a_read_window_an_idle_host_exits_at_once_and_its_sessions_are_unavailable(
    make_cluster: Any,
) -> None:
    cluster: Cluster = make_cluster(["idle-a", "idle-b"])
    leaving = cluster.hosts["idle-a"]
    with cluster.http(route=True) as http:
        session = session_on(http, "idle-a")
        leaving.process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        exit_code = leaving.process.wait(timeout=EXIT_BOUND_S)
        exited = time.monotonic() - signalled
        answer = http.get(f"/v1/sessions/{session['id']}")
    assert exit_code == 0
    assert exited < 3.0, exited
    assert (answer.status_code, answer.json()["code"], answer.json()["ownerHostId"]) == (
        503,
        "HOST_UNAVAILABLE",
        "idle-a",
    )
    print(f"\nno read window: an idle host exited {exited * 1000:.0f} ms after SIGTERM")


# -- (c) a hung host ------------------------------------------------------------------------------------------


def test_a_hung_hosts_requests_end_within_seconds_and_long_silent_turns_elsewhere_are_not_cut(
    make_cluster: Any,
    sockets: list[socket.socket],
) -> None:
    cluster: Cluster = make_cluster(["hung-a", "hung-b"])
    stuck = cluster.hosts["hung-a"]
    with cluster.http(route=True) as http, ThreadPoolExecutor(max_workers=8) as pool:
        held, streamed = session_on(http, "hung-a"), session_on(http, "hung-a")
        silent, beating = session_on(http, "hung-b"), session_on(http, "hung-b")
        json_turn = connect(cluster, sockets)
        send(json_turn, "POST", "/v1/runs", "hung-a", turn(held, "!sleep 30000\nnever"))
        stream = connect(cluster, sockets)
        send(stream, "POST", "/v1/runs/stream", "hung-a", turn(streamed, "!sleep 30000\nnever"))
        started = read_until(stream, b"run.started", ANSWER_BOUND_S)
        # Elsewhere: a JSON turn silent for 8 s (no byte until its end) and a stream of heartbeats (200 ms).
        long_turn = pool.submit(http.post, "/v1/runs", json=turn(silent, "!sleep 8000\nlong and silent"))
        heartbeats = pool.submit(http.post, "/v1/runs/stream", json=turn(beating, "!sleep 6000\nbeating"))
        # Stateless runs through the pool, round-robin: half of them on the host that hangs.
        stateless_socks = []
        for _ in range(4):
            sock = connect(cluster, sockets)
            send(sock, "POST", "/v1/runs", None, {**ECHO, "input": "!sleep 6000\nstateless"})
            stateless_socks.append(sock)
        for session in (held, silent):
            wait_for_status(http, session["id"], "running")

        with hung(stuck):
            stopped = time.monotonic()
            on_turn = receive(json_turn, HUNG_BOUND_S + 5)
            turn_after = time.monotonic() - stopped
            cut = read_until_closed(stream, HUNG_BOUND_S + 5, started)
            stream_after = time.monotonic() - stopped
            ended = [pool.submit(timed_receive, sock, 20, stopped) for sock in stateless_socks]
            stateless = [future.result(timeout=30) for future in ended]
            fresh = http.get(f"/v1/sessions/{held['id']}", timeout=HUNG_BOUND_S)
            long_answer = long_turn.result(timeout=30)
            stream_answer = heartbeats.result(timeout=30)
        resumed = time.monotonic()
        back = None
        while time.monotonic() - resumed < 15:
            read = http.get(f"/v1/sessions/{held['id']}")
            if read.status_code == 200:
                back = read.json()
                break
            time.sleep(0.05)
        back_after = time.monotonic() - resumed
        assert back is not None, "the resumed host never came back"
        if back["session"]["status"] == "running":  # the resumed host still has to see its client gone
            back = wait_for_status(http, held["id"], "interrupted")

    assert host_unavailable(on_turn, "hung-a"), on_turn
    assert turn_after < HUNG_BOUND_S, turn_after
    assert is_cut_stream(cut) and stream_after < HUNG_BOUND_S, (stream_after, cut[-300:])
    on_hung = [(answer, after) for answer, after in stateless if answer is not None and answer[0] == 503]
    on_other = [answer for answer, _ in stateless if answer is not None and answer[0] == 200]
    assert on_hung and on_other and len(on_hung) + len(on_other) == 4, stateless
    assert all(host_unavailable(answer, None) and after < HUNG_BOUND_S for answer, after in on_hung), on_hung
    assert {owner_of(json.loads(answer[2])["id"]) for answer in on_other} == {"hung-b"}
    assert (fresh.status_code, fresh.json()["code"], fresh.json()["ownerHostId"]) == (503, "HOST_UNAVAILABLE", "hung-a")
    assert long_answer.status_code == 200 and long_answer.json()["output"]["text"] == "echo: long and silent"
    assert stream_answer.status_code == 200 and '"type":"run.completed"' in stream_answer.text.replace(" ", "")
    # Resumed, the host is back with its session; the turn it held was cut, never run again.
    assert back["session"]["status"] == "interrupted" and back["session"]["revision"] == 0, back
    assert back["interruptedTurn"]["reason"] == "disconnected"
    print(
        f"\nSIGSTOP: JSON turn HOST_UNAVAILABLE after {turn_after:.2f} s, stream cut after {stream_after:.2f} s, "
        f"stateless runs ended after {max(after for _, after in on_hung):.2f} s; "
        f"back {back_after:.2f} s after SIGCONT"
    )
