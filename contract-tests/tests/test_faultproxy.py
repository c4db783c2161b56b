"""The client scenarios' fault proxy does what their README says, and every client scenario is well formed."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import httpx
import jsonschema
import pytest

from harness.paths import CONTRACT_DIR

PROXY = CONTRACT_DIR / "harness" / "faultproxy.py"
CLIENT_SCENARIOS = CONTRACT_DIR / "scenarios" / "clients"


class Upstream(BaseHTTPRequestHandler):
    """Answers every request with what it received, and counts them."""

    seen: ClassVar[list[tuple[str, str, bytes]]] = []

    def do_GET(self) -> None:
        self._answer()

    def do_POST(self) -> None:
        self._answer()

    def _answer(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        Upstream.seen.append((self.command, self.path, body))
        reply = json.dumps({"method": self.command, "path": self.path, "body": body.decode()}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def proxy() -> Iterator[str]:
    Upstream.seen = []
    upstream = ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    process = subprocess.Popen(
        [sys.executable, str(PROXY), "--upstream", f"http://127.0.0.1:{upstream.server_address[1]}"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        assert line.startswith("listening on http://127.0.0.1:"), line
        yield line.removeprefix("listening on ")
    finally:
        process.terminate()
        process.wait(5)
        if process.stdout is not None:
            process.stdout.close()
        upstream.shutdown()
        upstream.server_close()


def arm(base: str, *faults: dict[str, object]) -> None:
    assert httpx.post(f"{base}/__faults", json={"faults": list(faults)}).status_code == 204


def log(base: str) -> list[dict[str, object]]:
    return list(httpx.get(f"{base}/__faults/log").json()["requests"])


def test_forwards_unmatched_requests_and_logs_them(proxy: str) -> None:
    arm(proxy)
    answer = httpx.post(f"{proxy}/v1/runs?x=1", content=b'{"a": 1}', headers={"Idempotency-Key": "k-1"})
    assert answer.status_code == 200 and answer.headers["connection"] == "close"
    assert answer.json() == {"method": "POST", "path": "/v1/runs?x=1", "body": '{"a": 1}'}
    [entry] = log(proxy)
    assert entry["path"] == "/v1/runs" and entry["idempotencyKey"] == "k-1"
    assert entry["fault"] is None and entry["status"] == 200 and entry["authorization"] is False


def test_drop_response_forwards_then_sends_nothing(proxy: str) -> None:
    arm(proxy, {"method": "POST", "path": "/v1/runs", "action": "drop-response"})
    with pytest.raises(httpx.RemoteProtocolError):
        httpx.post(f"{proxy}/v1/runs", content=b"once", headers={"Authorization": "Bearer secret-value"})
    assert Upstream.seen == [("POST", "/v1/runs", b"once")]
    assert httpx.post(f"{proxy}/v1/runs", content=b"again").status_code == 200, "a fault is used up by one match"
    first, second = log(proxy)
    assert first["fault"] == "drop-response" and first["status"] is None and first["authorization"] is True
    assert "secret-value" not in json.dumps(log(proxy))
    assert second["fault"] is None


def test_reset_forwards_nothing(proxy: str) -> None:
    arm(proxy, {"method": "GET", "path": "/healthz", "action": "reset", "times": 2})
    for _ in range(2):
        with pytest.raises(httpx.RemoteProtocolError):
            httpx.get(f"{proxy}/healthz")
    assert Upstream.seen == []
    assert httpx.get(f"{proxy}/healthz").status_code == 200


def test_respond_answers_in_the_hosts_place(proxy: str) -> None:
    problem = {"code": "HOST_BUSY", "status": 503}
    headers = {"Content-Type": "application/problem+json", "Retry-After": "1"}
    arm(
        proxy,
        {"method": "POST", "path": "/v1/runs", "action": "respond", "status": 503, "headers": headers, "body": problem},
    )
    answer = httpx.post(f"{proxy}/v1/runs", content=b"{}")
    assert (answer.status_code, answer.headers["retry-after"], answer.json()) == (503, "1", problem)
    assert answer.headers["content-type"] == "application/problem+json"
    assert Upstream.seen == []
    assert log(proxy)[0]["status"] == 503


def test_abort_resets_the_connection_and_forwards_nothing(proxy: str) -> None:
    arm(proxy, {"method": "POST", "path": "/v1/runs", "action": "abort"})
    with pytest.raises(httpx.ReadError):
        httpx.post(f"{proxy}/v1/runs", content=b"{}")
    assert Upstream.seen == []
    assert log(proxy)[0]["fault"] == "abort"


def cut(end: str, after: str = '"path"', plus: int = 0) -> dict[str, object]:
    return {"method": "POST", "path": "/v1/runs", "action": "cut", "after": after, "plus": plus, "end": end}


def test_cut_finish_ends_the_body_cleanly_where_it_was_cut(proxy: str) -> None:
    arm(proxy, cut("finish", plus=3))
    answer = httpx.post(f"{proxy}/v1/runs", content=b"cut me")
    # the upstream's Content-Length answer, re-framed chunked and cut 3 bytes after the marker
    assert (answer.status_code, answer.text) == (200, '{"method": "POST", "path": "')
    assert answer.headers["transfer-encoding"] == "chunked" and "content-length" not in answer.headers
    assert Upstream.seen == [("POST", "/v1/runs", b"cut me")]
    assert log(proxy)[0]["status"] == 200


@pytest.mark.parametrize(("end", "error"), [("close", httpx.RemoteProtocolError), ("reset", httpx.ReadError)])
def test_cut_close_and_reset_break_the_body_after_its_start(proxy: str, end: str, error: type[Exception]) -> None:
    arm(proxy, cut(end))
    with httpx.stream("POST", f"{proxy}/v1/runs", content=b"{}") as answer:
        assert answer.status_code == 200  # the head arrived: the failure is in the body
        with pytest.raises(error):
            answer.read()
    assert len(Upstream.seen) == 1


def test_cut_stall_holds_the_answer_until_the_client_gives_up(proxy: str) -> None:
    arm(proxy, cut("stall"))
    with pytest.raises(httpx.ReadTimeout):
        httpx.post(f"{proxy}/v1/runs", content=b"{}", timeout=httpx.Timeout(5.0, read=0.2))
    assert httpx.post(f"{proxy}/v1/runs", content=b"{}").status_code == 200  # the proxy still serves


def test_arming_clears_the_log_and_bad_faults_are_refused(proxy: str) -> None:
    httpx.get(f"{proxy}/healthz")
    arm(proxy)
    assert log(proxy) == []
    refused = httpx.post(f"{proxy}/__faults", json={"faults": [{"method": "GET", "path": "/", "action": "explode"}]})
    assert refused.status_code == 400 and "explode" in refused.text
    refused = httpx.post(f"{proxy}/__faults", json={"faults": [cut("explode")]})
    assert refused.status_code == 400 and "unknown cut end 'explode'" in refused.text


@pytest.mark.parametrize(
    "path", sorted(p for p in CLIENT_SCENARIOS.glob("*.json") if p.name != "schema.json"), ids=lambda p: p.stem
)
def test_client_scenario_is_well_formed(path: Path) -> None:
    schema = json.loads((CLIENT_SCENARIOS / "schema.json").read_text())
    scenario = json.loads(path.read_text())
    jsonschema.Draft202012Validator(schema).validate(scenario)
    assert scenario["name"] == path.stem
