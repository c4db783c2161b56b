"""``agentic-driver cluster config``: what each engine's configuration routes, and clear errors for bad input.

These read the generated text; tests/cluster checks it with haproxy -c / nginx -t and runs it.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import yaml

from agentic_driver.cli import main
from agentic_driver.cluster import TURN_TIMEOUT_S, ClusterConfigError, parse_hosts, render, unavailable_body
from agentic_driver.config import LimitsConfig

HOSTS = ["--host", "web-0=10.0.0.1:8080", "--host", "web-1=10.0.0.2:8080"]
RUN = "run_web-1.Vb3kQ9sLm2Xc8Rt4Ny7Pwa"
OWNED_PATHS = [
    f"/v1/runs/{RUN}",  # getRun
    f"/v1/runs/{RUN}/events",  # streamRunEvents
    f"/v1/runs/{RUN}/cancel",
    f"/v1/runs/{RUN}/actions/stream",
    "/v1/sessions/ses_web-1.Vb3kQ9sLm2Xc8Rt4Ny7Pwa",
]
UNOWNED_PATHS = ["/v1/runs", "/v1/runs/stream", "/v1/sessions", "/v1/runs/run_web-10.x", "/v1/runs/run_web-1x"]


def generate(capsys: pytest.CaptureFixture[str], fmt: str, *extra: str) -> str:
    assert main(["cluster", "config", "--format", fmt, "--no-check", *HOSTS, *extra]) == 0
    return capsys.readouterr().out


def test_haproxy_routes_on_the_header_then_the_path_id_and_balances_the_rest_over_ready_hosts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = generate(capsys, "haproxy", "--bind", "0.0.0.0:9000")

    assert "    bind 0.0.0.0:9000" in text
    for host, address in (("web-0", "10.0.0.1:8080"), ("web-1", "10.0.0.2:8080")):
        backend = host.replace("-", "_")
        assert f"use_backend host_{backend} if {{ req.hdr(agentic-host) -m str {host} }}" in text
        assert f"{{ path_beg /v1/sessions/ses_{host}. }} || {{ path_beg /v1/runs/run_{host}. }}" in text
        section = text.split(f"backend host_{backend}\n")[1].split("\n\n")[0]
        assert "option httpchk GET /healthz" in section  # served while it drains
        assert f"server {host} {address} check" in section
    pool = text.split("\nbackend pool\n")[1].split("\n\n")[0]
    assert "option httpchk GET /readyz" in pool and "balance hdr(idempotency-key)" in pool
    assert text.index("req.hdr(agentic-host)") < text.index("path_beg")  # the header is matched first
    assert text.rstrip().endswith("rise 2 on-marked-down shutdown-sessions")


def test_haproxy_ends_a_hung_hosts_requests_but_never_a_draining_hosts_and_never_sends_one_twice(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = generate(capsys, "haproxy")
    defaults = text.split("\ndefaults\n")[1].split("\n\n")[0].splitlines()
    pool = text.split("\nbackend pool\n")[1].split("\n\n")[0].splitlines()
    owned = [text.split(f"\nbackend host_{h}\n")[1].split("\n\n")[0].splitlines() for h in ("web_0", "web_1")]

    # A check unanswered within 1 s fails (a hung host), and a host marked down has its requests ended ...
    assert "    timeout check 1s" in defaults
    servers = [line for line in text.splitlines() if line.startswith("    server ")]
    assert len(servers) == 4 and all(line.endswith(" on-marked-down shutdown-sessions") for line in servers)
    # ... but a draining host is never marked down: /healthz for its own sessions, and /readyz's 503 for new
    # work is a conditional pass (NOLB: no new work, the requests it serves go on).
    assert "    http-check expect error-status L7OKC status 200" in pool
    for section in owned:
        assert "    option httpchk GET /healthz" in section and "    http-check expect status 200" in section
        # Nothing is retried on an owned backend, nor moved to another host.
        assert "    retries 0" in section
        assert not any(line.strip().startswith(("option redispatch", "retry-on")) for line in section)
    assert "    retries 1" in pool and "    option redispatch" in pool  # new work: a refused connection only
    assert not any(line.strip().startswith(("retries", "option redispatch", "retry-on")) for line in defaults)
    assert not any(line.strip().startswith("retry-on") for line in text.splitlines())  # conn-failure only
    # No idle timeout is shortened for it: long silent JSON turns and heartbeating streams are not cut.
    assert f"    timeout server {TURN_TIMEOUT_S}s" in defaults


def test_haproxy_and_nginx_route_every_path_that_names_a_run_or_session_by_its_id(
    capsys: pytest.CaptureFixture[str],
) -> None:
    haproxy = generate(capsys, "haproxy")
    nginx = generate(capsys, "nginx")
    prefixes = [
        (line.split()[1], prefix)
        for line in haproxy.splitlines()
        if line.startswith("    use_backend ")
        for prefix in re.findall(r"path_beg (\S+)", line)
    ]
    patterns = [(host, re.compile(regex)) for regex, host in re.findall(r"~(\^/v1/\S+) (web-\d);", nginx)]

    def haproxy_owners(path: str) -> list[str]:
        return [backend for backend, prefix in prefixes if path.startswith(prefix)]

    def nginx_owners(path: str) -> list[str]:
        return [host for host, pattern in patterns if pattern.match(path)]

    assert len(prefixes) == 4 and len(patterns) == 2
    for path in OWNED_PATHS:
        assert (haproxy_owners(path), nginx_owners(path)) == (["host_web_1"], ["web-1"]), path
    for path in UNOWNED_PATHS:
        assert (haproxy_owners(path), nginx_owners(path)) == ([], []), path


def test_every_config_passes_a_client_hang_up_on_and_streams_through_unbuffered_and_unbounded(
    capsys: pytest.CaptureFixture[str],
) -> None:
    haproxy = generate(capsys, "haproxy")
    nginx = generate(capsys, "nginx")
    gateway: list[dict[str, Any]] = list(yaml.safe_load_all(generate(capsys, "gateway-api")))

    defaults = haproxy.split("\ndefaults\n")[1].split("\n\n")[0]
    assert "    option abortonclose" in defaults.splitlines()  # onDisconnect: cancel behind the proxy
    assert "    option http-no-delay" in defaults.splitlines()  # an SSE event is not held for 200 ms
    assert f"    timeout server {TURN_TIMEOUT_S}s" in defaults and f"    timeout client {TURN_TIMEOUT_S}s" in defaults
    assert "no option abortonclose" not in haproxy
    for line in ("proxy_ignore_client_abort off;", "proxy_buffering off;", f"proxy_read_timeout {TURN_TIMEOUT_S}s;"):
        assert line in nginx
    assert "proxy_ignore_client_abort on" not in nginx
    # Idle timeouts, far above the host's heartbeat: a stream or a rejoin is never cut while its host lives.
    assert LimitsConfig().heartbeatMs * 40 <= TURN_TIMEOUT_S * 1000
    rules = gateway[-1]["spec"]["rules"]
    assert [rule["timeouts"] for rule in rules] == [{"request": "0s"}] * 3


def test_haproxy_answers_its_own_failures_with_host_unavailable_naming_the_host(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = generate(capsys, "haproxy")

    bodies = re.findall(r"http-error status (\d+) content-type application/problem\+json string '([^']*)'", text)
    assert {status for status, _ in bodies} == {"502", "503", "504"}
    owners = {json.loads(body).get("ownerHostId") for _, body in bodies}
    assert owners == {None, "web-0", "web-1"}
    assert all(
        json.loads(body)["code"] == "HOST_UNAVAILABLE" and json.loads(body)["status"] == 503 for _, body in bodies
    )
    assert text.count("http-after-response set-status 503") == 3  # the pool and both hosts


def test_nginx_maps_the_header_and_the_path_to_each_hosts_upstream(capsys: pytest.CaptureFixture[str]) -> None:
    text = generate(capsys, "nginx", "--bind", "127.0.0.1:9001")

    assert "listen 127.0.0.1:9001;" in text
    assert "        web-0 web-0;" in text and r"~^/v1/(sessions/ses|runs/run)_web\-0\. web-0;" in text
    assert "upstream host_web_0 {\n        server 10.0.0.1:8080 max_fails=0;" in text
    assert "proxy_buffering off;" in text and "error_page 502 503 504 = @host_unavailable;" in text
    assert "hash $http_idempotency_key consistent;" in text
    assert f"web-1 '{unavailable_body('web-1')}';" in text


def test_gateway_api_has_one_header_rule_per_host_a_default_rule_and_a_statefulset_with_probes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    documents: list[dict[str, Any]] = list(yaml.safe_load_all(generate(capsys, "gateway-api")))

    kinds = [d["kind"] for d in documents]
    assert kinds == ["StatefulSet", "Service", "Service", "Service", "HTTPRoute"]
    route = documents[-1]
    rules = route["spec"]["rules"]
    assert [r["matches"][0]["headers"][0] for r in rules[:2]] == [
        {"type": "Exact", "name": "Agentic-Host", "value": "web-0"},
        {"type": "Exact", "name": "Agentic-Host", "value": "web-1"},
    ]
    assert [r["backendRefs"][0]["name"] for r in rules] == ["web-0", "web-1", "web"]
    pods = [d for d in documents if d["kind"] == "Service" and d["metadata"]["name"] != "web"]
    assert all(p["spec"]["publishNotReadyAddresses"] is True for p in pods)
    container = documents[0]["spec"]["template"]["spec"]["containers"][0]
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert container["env"][0]["name"] == "AGENTIC_DRIVER_HOST_ID"
    assert documents[0]["spec"]["replicas"] == 2
    # the restart snapshot: the key from a Secret, the file on each pod's own volume
    key = container["env"][1]
    secret = key["valueFrom"]["secretKeyRef"]["name"]
    assert (key["name"], secret) == ("AGENTIC_DRIVER_SNAPSHOT_KEY", "web-snapshot-key")
    assert {"name": "state", "mountPath": "/var/lib/agentic-driver"} in container["volumeMounts"]
    claim = documents[0]["spec"]["volumeClaimTemplates"][0]
    assert (claim["metadata"]["name"], claim["spec"]["accessModes"]) == ("state", ["ReadWriteOnce"])


@pytest.mark.parametrize(
    ("specs", "message"),
    [
        (["web_0=127.0.0.1:1"], "DNS label"),
        (["web-0"], "ID=HOST:PORT"),
        (["web-0=127.0.0.1"], "HOST:PORT"),
        (["web-0=127.0.0.1:0"], "HOST:PORT"),
        (["web-0=host name:80"], "HOST:PORT"),
        (["web-0=a:1", "web-0=b:2"], "given twice"),
        ([], "at least one"),
    ],
)
def test_bad_hosts_are_refused_naming_the_argument(specs: list[str], message: str) -> None:
    with pytest.raises(ClusterConfigError, match=message):
        parse_hosts(specs)


def test_gateway_api_needs_statefulset_pod_names(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ClusterConfigError, match="StatefulSet's pod names"):
        render("gateway-api", parse_hosts(["a=1.2.3.4:80", "b=1.2.3.4:80"]))

    status = main(["cluster", "config", "--format", "haproxy", "--host", "Bad=1:2"])
    assert status == 1
    assert "--host 'Bad=1:2'" in capsys.readouterr().err
