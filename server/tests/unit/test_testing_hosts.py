"""The shared host-start helper (``agentic_driver_testing``): ready when it answers, clear when it cannot start."""

from __future__ import annotations

import signal
import sys
import time
from pathlib import Path

import pytest
from agentic_driver_testing import HostStartError, free_port, start, stop_process
from agentic_driver_testing.hosts import spawn

# A server that answers 200 on /healthz and 404 elsewhere, on the port given as its argument.
SERVER = (
    "import http.server, sys\n"
    "class H(http.server.BaseHTTPRequestHandler):\n"
    "    def do_GET(self):\n"
    "        self.send_response(200 if self.path == '/healthz' else 404); self.end_headers()\n"
    "    def log_message(self, *a): pass\n"
    "print('serving', flush=True)\n"
    "http.server.HTTPServer(('127.0.0.1', int(sys.argv[1])), H).serve_forever()\n"
)
STUBBORN = (
    "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nprint('up', flush=True)\ntime.sleep(60)\n"
)


def test_a_started_server_answers_logs_and_stops(tmp_path: Path) -> None:
    host = start(lambda port: [sys.executable, "-c", SERVER, str(port)], lambda n, port: tmp_path / f"s-{n}-{port}.log")

    assert host.base_url == f"http://127.0.0.1:{host.port}"
    assert host.answers("/healthz") and not host.answers("/other")
    host.stop()
    assert host.process.poll() is not None and not host.answers("/healthz")
    assert "serving" in host.log_text()


def test_a_process_that_exits_fails_the_start_with_its_log(tmp_path: Path) -> None:
    with pytest.raises(HostStartError, match=r"(?s)did not become healthy.*no such flag"):
        start(
            lambda port: [sys.executable, "-c", "import sys; sys.exit('no such flag')"],
            lambda n, port: tmp_path / f"x-{n}.log",
            name="broken",
            timeout_s=600,  # the loop stops when the process exits, long before this
        )


def test_a_server_that_never_answers_gives_up_at_the_deadline(tmp_path: Path) -> None:
    host = spawn([sys.executable, "-c", STUBBORN], free_port(), tmp_path / "quiet.log")

    assert host.wait_ready("/healthz", timeout_s=0.3, interval_s=0.05) is False
    stop_process(host.process)
    assert host.process.poll() is not None


def test_a_process_that_ignores_the_stop_signal_is_killed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("agentic_driver_testing.hosts.STOP_TIMEOUT_S", 0.5)
    host = spawn([sys.executable, "-c", STUBBORN], free_port(), tmp_path / "stubborn.log", start_new_session=True)
    for _ in range(200):  # bounded: until the child has installed its SIGTERM handler
        if "up" in host.log_text():
            break
        time.sleep(0.02)

    host.stop()

    assert host.group and host.process.returncode == -signal.SIGKILL
