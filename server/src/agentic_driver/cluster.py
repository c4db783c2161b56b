"""``agentic-driver cluster config``: a stock proxy's configuration for N host processes.

Sessions never move (``SCALEOUT.md``): every request that names a session or
run must reach the process whose id is in it. The proxy routes on the
``Agentic-Host`` header (clients send it, derived from the id) and, for
clients that do not, on the id inside the path (``/v1/sessions/ses_{hostId}.…``,
``/v1/runs/run_{hostId}.…``); requests that name nothing are load-balanced
over the hosts that take new work (``/readyz``). A request the proxy still
sends to the wrong host is answered 421 by that host, so nothing is guessed.

Every config passes a client's hang-up on to the host at once (HAProxy: ``option abortonclose``; nginx:
``proxy_ignore_client_abort off``, its default, stated), so ``onDisconnect`` means the same through the proxy
as directly: a run sent with ``cancel`` stops when its client goes away, JSON or stream, and one sent with
``continue`` goes on. Streams (SSE, also a rejoin by ``GET /v1/runs/{runId}/events``) are passed on as they are
written, and only an idle timeout far above the host's heartbeat applies to them (Gateway API: no request
timeout at all, which is what ``timeouts.request: 0s`` asks for).

Each engine gets what it can do with stock configuration:

- HAProxy (first-class): header and path routing; per host, a backend checked
  on ``/healthz`` (so a draining host still gets its own sessions' requests)
  and, for new work, a pool checked on ``/readyz``, whose 503 while draining is
  a conditional pass (no new work within about half a second, its requests go
  on); a host that is dead or hung (checks unanswered for 1 s) is marked down
  and its requests are ended; the proxy's own 502/503/504 answers for a host
  are ``HOST_UNAVAILABLE`` problems naming it, sent as 503 with ``Retry-After``.
- nginx (open source): header and path routing and the same problem bodies;
  no active health checks, so a draining host is left only by passive failure
  detection and by clients retrying ``SHUTTING_DOWN`` (see docs/cluster.md).
- Gateway API: one ``HTTPRoute`` rule per host on the header (Core
  conformance; path prefixes cannot match inside a path segment) and a
  default rule to the pool, plus a StatefulSet example with ``/readyz`` and
  ``/healthz`` probes and one Service per pod.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .errors import HostUnavailable
from .ids import HOST_ID_PATTERN, is_host_id

__all__ = [
    "DEFAULT_BIND",
    "FORMATS",
    "ClusterConfigError",
    "ClusterHost",
    "check_config",
    "parse_bind",
    "parse_hosts",
    "render",
]

FORMATS = ("haproxy", "nginx", "gateway-api")
DEFAULT_BIND = "127.0.0.1:8080"
TURN_TIMEOUT_S = 660
"""How long the proxy waits for a host's answer: a JSON run answers only when its turn ends, and a provider's
default ``timeoutMs`` is 600 s. Streams send a heartbeat every ``heartbeatMs`` (15 s), so they are never idle:
HAProxy's and nginx's timeouts here are idle timeouts, so a stream or a rejoin may last as long as its run."""
CHECK_INTERVAL_MS = 500
"""Health checks: every 500 ms (250 ms while failing), down after 2 failures, up after 2 successes."""
CHECK_TIMEOUT_MS = 1_000
"""A check unanswered this long fails: a hung host (stopped, or its event loop blocked) answers nothing while
the kernel still accepts its connections. Two such checks (``fall 2``) mark it down, about 2 to 3 s after it
hung, and ``on-marked-down shutdown-sessions`` then ends the requests it holds. ``/healthz`` answers in
milliseconds, so a live host is marked down only when its loop is stuck for over a second twice in a row."""


@dataclass(frozen=True, slots=True)
class ClusterHost:
    host_id: str
    address: str
    """``host:port`` the proxy connects to (for Gateway API: the container port is taken from it)."""

    @property
    def port(self) -> int:
        return int(self.address.rsplit(":", 1)[1])


class ClusterConfigError(ValueError):
    pass


def parse_hosts(specs: list[str]) -> list[ClusterHost]:
    """``ID=HOST:PORT`` arguments -> hosts; every problem is reported with the argument it came from."""
    hosts: list[ClusterHost] = []
    for spec in specs:
        host_id, sep, address = spec.partition("=")
        if not sep or not is_host_id(host_id):
            raise ClusterConfigError(f"--host {spec!r}: expected ID=HOST:PORT with ID a DNS label ({HOST_ID_PATTERN})")
        name, colon, port = address.rpartition(":")
        if not colon or not name or not port.isdigit() or not 0 < int(port) < 65536 or re.search(r"[\s;'\"{}#]", name):
            raise ClusterConfigError(f"--host {spec!r}: the address must be HOST:PORT (for example 127.0.0.1:8001)")
        if any(h.host_id == host_id for h in hosts):
            raise ClusterConfigError(f"--host {spec!r}: host id {host_id!r} is given twice")
        hosts.append(ClusterHost(host_id, address))
    if not hosts:
        raise ClusterConfigError("give at least one --host ID=HOST:PORT")
    return hosts


def parse_bind(bind: str) -> str:
    name, colon, port = bind.rpartition(":")
    if not colon or not port.isdigit() or not 0 < int(port) < 65536 or re.search(r"[\s;'\"{}#]", name):
        raise ClusterConfigError(f"--bind {bind!r}: expected ADDR:PORT (for example 127.0.0.1:8080)")
    return bind


def unavailable_body(host_id: str | None) -> str:
    """The proxy's own problem for a host it cannot reach (``HOST_UNAVAILABLE``, one line of JSON without a
    single quote or a backslash, so it fits a single-quoted HAProxy or nginx string as it is)."""
    if host_id is None:
        detail = (
            "No host process behind this proxy took or finished this request: none takes new work, or the "
            "one it went to is down. Retry after a second."
        )
    else:
        detail = (
            f"The proxy cannot reach host {host_id}, which owns this session or run: it is down or "
            "restarting. Retry after a second; a host that restarted has lost its sessions (404): then "
            "create a new session."
        )
    problem = HostUnavailable(detail, owner_host_id=host_id).problem()
    return json.dumps(problem, separators=(",", ":"))


def render(fmt: str, hosts: list[ClusterHost], bind: str = DEFAULT_BIND, token_rate: int | None = None) -> str:
    """The proxy configuration; ``token_rate`` (HAProxy only): new work a minute per bearer token, proxy-wide."""
    if token_rate is not None and fmt != "haproxy":
        raise ClusterConfigError(f"--token-runs-per-minute: only --format haproxy has it, not {fmt!r}")
    if token_rate is not None and token_rate < 1:
        raise ClusterConfigError(f"--token-runs-per-minute {token_rate}: at least 1")
    if fmt == "haproxy":
        return render_haproxy(hosts, bind, token_rate)
    if fmt == "nginx":
        return render_nginx(hosts, bind)
    if fmt == "gateway-api":
        return render_gateway_api(hosts)
    raise ClusterConfigError(f"--format {fmt!r}: one of {', '.join(FORMATS)}")


def _backend(host_id: str) -> str:
    return "host_" + host_id.replace("-", "_")


def _listing(hosts: list[ClusterHost]) -> str:
    return " ".join(f"{h.host_id}={h.address}" for h in hosts)


def render_haproxy(hosts: list[ClusterHost], bind: str, token_rate: int | None = None) -> str:
    check = (
        f"inter {CHECK_INTERVAL_MS}ms fastinter {CHECK_INTERVAL_MS // 2}ms fall 2 rise 2 "
        "on-marked-down shutdown-sessions"
    )
    lines = [
        f"# Generated by `agentic-driver cluster config --format haproxy`: {_listing(hosts)}",
        "# Requests that name a session or run go to its host (Agentic-Host header, else the id in the path);",
        "# the rest are balanced over the hosts whose /readyz answers 200. Check: haproxy -c -f FILE.",
        "global",
        "    # maxconn: HAProxy's default follows the file-descriptor limit (ulimit -n).",
        "",
        "defaults",
        "    mode http",
        "    timeout connect 500ms",
        f"    timeout client {TURN_TIMEOUT_S}s",
        f"    timeout server {TURN_TIMEOUT_S}s",
        "    timeout http-request 10s",
        "    timeout http-keep-alive 5s",
        "    timeout queue 2s",
        "    # A health check unanswered within 1 s fails: a hung host still accepts connections but answers nothing.",
        "    # Marked down after two, about 2-3 s after it hung, it has its requests ended (on-marked-down",
        "    # shutdown-sessions below); no idle timeout needs to be short, so long silent turns are never cut.",
        f"    timeout check {CHECK_TIMEOUT_MS // 1000}s",
        "    # A client that hangs up stops its run (onDisconnect: cancel, the default): pass its abort on to the",
        "    # host at once, also while the host has not answered yet (a JSON run answers when its turn ends).",
        "    # Without it HAProxy keeps the request and the run goes on to its end (measured: docs/cluster.md).",
        "    option abortonclose",
        "    # Streams (SSE) reach the client as they are written: without it each event waits up to 200 ms.",
        "    option http-no-delay",
        "    # The host reads no X-Forwarded-* header; the proxy adds nothing to each request.",
        "",
        "frontend agentic",
        f"    bind {bind}",
        *([] if token_rate is None else _haproxy_token_rate(token_rate)),
    ]
    for h in hosts:
        lines.append(f"    use_backend {_backend(h.host_id)} if {{ req.hdr(agentic-host) -m str {h.host_id} }}")
    for h in hosts:
        lines.append(
            f"    use_backend {_backend(h.host_id)} if {{ path_beg /v1/sessions/ses_{h.host_id}. }} "
            f"|| {{ path_beg /v1/runs/run_{h.host_id}. }}"
        )
    lines += [
        "    default_backend pool",
        "",
        "# New work: the hosts that take it. A draining host answers /readyz 503: that check still passes, but",
        "# conditionally (L7OKC), so the host is in NOLB state: it gets no new work from the next check on, and the",
        "# requests it is serving (stateless turns it admitted) go on. Only a host that refuses connections or",
        "# leaves a check unanswered is marked down, and has its requests ended.",
        "# Idempotency keys are remembered by the host that first saw them, so a request with a key goes to the",
        "# host its key hashes to (consistent: a host leaving moves only its own keys); the rest round-robin.",
        "backend pool",
        "    balance hdr(idempotency-key)",
        "    hash-type consistent",
        "    # A refused connection: the request never reached a host, so its one retry goes to another host.",
        "    retries 1",
        "    option redispatch",
        "    option httpchk GET /readyz",
        "    http-check expect error-status L7OKC status 200",
        *_haproxy_errors(None),
    ]
    for h in hosts:
        lines.append(f"    server {h.host_id} {h.address} check {check}")
    for h in hosts:
        lines += [
            "",
            f"# Everything that names host {h.host_id}: checked on /healthz, so it is served while it drains.",
            f"backend {_backend(h.host_id)}",
            *_haproxy_owned_retries(),
            "    option httpchk GET /healthz",
            "    http-check expect status 200",
            *_haproxy_errors(h.host_id),
            f"    server {h.host_id} {h.address} check {check}",
        ]
    return "\n".join(lines) + "\n"


TOKEN_RATE_LIMIT = "proxy.tokenRunsPerMinute"
"""The ``limit`` a proxy-wide refusal names (``SUBJECT_QUOTA_EXCEEDED``)."""
TOKEN_RATE_WINDOW_S = 60


def token_rate_body(maximum: int) -> str:
    """The problem the proxy answers for new work over ``--token-runs-per-minute``."""
    detail = (
        f"This bearer token started its most new runs and sessions ({maximum}) in the last minute over all the "
        "hosts behind this proxy. Retry after Retry-After seconds."
    )
    problem = {
        "type": "urn:agentic-driver:problem:SUBJECT_QUOTA_EXCEEDED",
        "title": "Subject quota exceeded",
        "status": 429,
        "code": "SUBJECT_QUOTA_EXCEEDED",
        "detail": detail,
        "limit": TOKEN_RATE_LIMIT,
        "maximum": maximum,
    }
    return json.dumps(problem, separators=(",", ":"))


def _haproxy_token_rate(maximum: int) -> list[str]:
    """A stick table counting, per bearer token, the requests that start work (a run, a stream, a new or forked
    session: the operations that document ``SUBJECT_QUOTA_EXCEEDED``), refused over ``maximum`` a minute.

    The table is keyed by the SHA-256 of the ``Authorization`` header, so no token is held by the proxy. The count
    is HAProxy's sliding rate over the last minute; a refused request is counted as well, so a client that keeps
    sending stays refused until it waits (``Retry-After``)."""
    starts_work = "starts_work"
    return [
        f"    # --token-runs-per-minute {maximum}: at most {maximum} new runs and sessions a minute per bearer token,",
        "    # over every host behind this proxy (the hosts' own limits.perSubject are per process). Keyed by the",
        "    # token's SHA-256: the table holds no token.",
        f"    stick-table type binary len 32 size 100k expire {TOKEN_RATE_WINDOW_S}s "
        f"store http_req_rate({TOKEN_RATE_WINDOW_S}s)",
        f"    acl {starts_work} method POST",
        f"    acl {starts_work}_path path /v1/runs /v1/runs/stream /v1/sessions",
        f"    acl {starts_work}_path path_reg ^/v1/sessions/[^/]+/fork$",
        f"    http-request track-sc0 req.hdr(authorization),sha2(256) if {starts_work} {starts_work}_path "
        "{ req.hdr(authorization) -m found }",
        f"    http-request deny deny_status 429 content-type application/problem+json string "
        f"'{token_rate_body(maximum)}' hdr retry-after {TOKEN_RATE_WINDOW_S} "
        f"if {starts_work} {starts_work}_path {{ sc_http_req_rate(0) gt {maximum} }}",
    ]


def _haproxy_owned_retries() -> list[str]:
    """No retry for a request to a session's or run's host: there is no other host to try (no ``option
    redispatch`` here), and the problem is what its client should get, at once.

    Measured against HAProxy 2.6 (docs/cluster.md, *When a node dies*): a retry after a refused connection
    waits ``timeout connect`` first, and a host marked down meanwhile has that waiting request closed with no
    answer (``on-marked-down shutdown-sessions``). ``retry-on empty-response`` gains nothing for a host that is
    gone (its retry fails as well) and would send a request that a hung host already holds a second time once
    its stream is shut down; a hung host that resumes would then read it twice. A response timeout is never
    retried for the same reason."""
    return [
        "    # A refused connection is answered at once with the problem below: the session lives on this host",
        "    # only (no redispatch), so a retry can only meet the same refusal. Nothing that may have reached the",
        "    # host is ever sent again (no retry-on empty-response or response-timeout: a hung host that resumes",
        "    # would run it twice).",
        "    retries 0",
    ]


def _haproxy_errors(host_id: str | None) -> list[str]:
    """The proxy's own 502/503/504 as a HOST_UNAVAILABLE problem, sent as 503 (the code's one status)."""
    body = unavailable_body(host_id)
    lines = [
        f"    http-error status {status} content-type application/problem+json string '{body}' "
        "hdr retry-after 1 hdr x-agentic-proxy-error 1"
        for status in (502, 503, 504)
    ]
    return [
        *lines,
        "    http-after-response set-status 503 if { res.hdr(x-agentic-proxy-error) -m found }",
        "    http-after-response del-header x-agentic-proxy-error",
    ]


def render_nginx(hosts: list[ClusterHost], bind: str) -> str:
    header_map = "\n".join(f"        {h.host_id} {h.host_id};" for h in hosts)
    path_map = "\n".join(f"        ~^/v1/(sessions/ses|runs/run)_{re.escape(h.host_id)}\\. {h.host_id};" for h in hosts)
    upstreams = "\n".join(
        f"    upstream {_backend(h.host_id)} {{\n        server {h.address} max_fails=0;\n        keepalive 16;\n    }}"
        for h in hosts
    )
    pool = "\n".join(f"        server {h.address} max_fails=1 fail_timeout=2s;" for h in hosts)
    owner_json = "\n".join(f"        {h.host_id} '{unavailable_body(h.host_id)}';" for h in hosts)
    to_upstream = "\n".join(f"        {h.host_id} {_backend(h.host_id)};" for h in hosts)
    return f"""# Generated by `agentic-driver cluster config --format nginx`: {_listing(hosts)}
# Requests that name a session or run go to its host (Agentic-Host header, else the id in the path); the rest
# are balanced. Open-source nginx has no active health checks: see Agentic Driver's docs/cluster.md for what
# that means for a drain. Check: nginx -t -c FILE (as a whole nginx.conf).
worker_processes 1;
pid agentic-nginx.pid;
error_log stderr warn;

events {{
    worker_connections 4096;
}}

http {{
    access_log off;
    server_tokens off;
    client_body_temp_path /tmp/agentic-nginx-body;
    proxy_temp_path /tmp/agentic-nginx-proxy;
    fastcgi_temp_path /tmp/agentic-nginx-fastcgi;
    uwsgi_temp_path /tmp/agentic-nginx-uwsgi;
    scgi_temp_path /tmp/agentic-nginx-scgi;

    map $http_agentic_host $agentic_by_header {{
        default "";
{header_map}
    }}
    map $uri $agentic_by_path {{
        default "";
{path_map}
    }}
    # The header wins over the path (the host checks the id again and answers 421 if they disagree).
    map "$agentic_by_header:$agentic_by_path" $agentic_owner {{
        default "";
        "~^(?<named>[^:]+):" $named;
        "~^:(?<pathed>.+)$" $pathed;
    }}
    map $agentic_owner $agentic_upstream {{
        default pool;
{to_upstream}
    }}
    map $agentic_owner $agentic_unavailable {{
        default '{unavailable_body(None)}';
{owner_json}
    }}

    # Idempotency keys are remembered by the host that first saw them: a request with a key goes to the host its
    # key hashes to (requests without one round-robin).
    upstream pool {{
        hash $http_idempotency_key consistent;
{pool}
        keepalive 32;
    }}
{upstreams}

    server {{
        listen {bind};
        client_max_body_size 0;  # the host enforces its own maxBodyBytes
        location / {{
            proxy_pass http://$agentic_upstream;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_buffering off;  # streams (SSE) reach the client as they are written
            proxy_request_buffering off;
            # nginx's default, stated: a client that hangs up closes the connection to its host, which stops its
            # run (onDisconnect: cancel). "on" would let every run go on to its end (measured: docs/cluster.md).
            proxy_ignore_client_abort off;
            proxy_connect_timeout 1s;
            proxy_read_timeout {TURN_TIMEOUT_S}s;
            proxy_send_timeout {TURN_TIMEOUT_S}s;
            # Only nginx's own failures (no intercept: a host's 502/503/504 problems pass through unchanged).
            error_page 502 503 504 = @host_unavailable;
        }}
        location @host_unavailable {{
            default_type application/problem+json;
            add_header Retry-After 1 always;
            return 503 $agentic_unavailable;
        }}
    }}
}}
"""


def render_gateway_api(hosts: list[ClusterHost]) -> str:
    ordinals = [re.fullmatch(r"(.+)-(\d+)", h.host_id) for h in hosts]
    names = {m.group(1) for m in ordinals if m is not None}
    if len(names) != 1 or None in ordinals or sorted(int(m.group(2)) for m in ordinals if m) != list(range(len(hosts))):
        raise ClusterConfigError(
            "--format gateway-api: host ids must be a StatefulSet's pod names NAME-0 ... NAME-(N-1) "
            "(each pod's hostId is its name)"
        )
    name = names.pop()
    port = hosts[0].port
    documents = [_statefulset(name, len(hosts), port), _service(name, port, None)]
    documents += [_service(name, port, h.host_id) for h in hosts]
    documents.append(_http_route(name, port, hosts))
    header = (
        f"# Generated by `agentic-driver cluster config --format gateway-api`: {_listing(hosts)}\n"
        "# One HTTPRoute rule per host on the Agentic-Host header (Core conformance), the rest to the pool.\n"
        "# Set parentRefs to your Gateway. The StatefulSet is an example: mount your host JSON at /config.\n"
        "# Every rule asks for no request timeout (streams and rejoins last as long as their run). Your Gateway\n"
        "# must also close the connection to the pod when a client hangs up and must not buffer text/event-stream\n"
        "# responses: Gateway API has no field for either (see Agentic Driver's docs/cluster.md).\n"
    )
    return header + "\n---\n".join(documents)


def _statefulset(name: str, replicas: int, port: int) -> str:
    return f"""apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: {name}
spec:
  serviceName: {name}
  replicas: {replicas}
  podManagementPolicy: Parallel
  selector:
    matchLabels:
      app: {name}
  template:
    metadata:
      labels:
        app: {name}
    spec:
      # A drain lets admitted turns finish (limits.drainTimeoutMs, 30 s by default) before the process exits.
      terminationGracePeriodSeconds: 40
      containers:
        - name: agentic-driver
          image: agentic-driver:latest
          args: ["serve", "--config", "/config/host.json", "--host", "0.0.0.0", "--port", "{port}"]
          env:
            - name: AGENTIC_DRIVER_HOST_ID  # the pod name: ids say which pod owns a session
              valueFrom:
                fieldRef:
                  fieldPath: metadata.name
            # The restart snapshot's key (host JSON sessions.snapshot.keyEnv), from a Secret made once:
            #   kubectl create secret generic {name}-snapshot-key --from-literal=key=$(openssl rand -hex 32)
            # (optional here: a host JSON without sessions.snapshot needs none; one with it refuses to start
            # without the key)
            - name: AGENTIC_DRIVER_SNAPSHOT_KEY
              valueFrom:
                secretKeyRef: {{name: {name}-snapshot-key, key: key, optional: true}}
          ports:
            - name: http
              containerPort: {port}
          readinessProbe:  # 503 while draining: the pool Service stops sending it new work
            httpGet: {{path: /readyz, port: http}}
            periodSeconds: 1
            failureThreshold: 1
          livenessProbe:
            httpGet: {{path: /healthz, port: http}}
            periodSeconds: 5
          volumeMounts:
            - {{name: config, mountPath: /config, readOnly: true}}
            # Each pod's own volume keeps its snapshot across a rolling update: host JSON sets
            #   "sessions": {{"snapshot": {{"path": "/var/lib/agentic-driver/{{hostId}}.snapshot",
            #                "keyEnv": "AGENTIC_DRIVER_SNAPSHOT_KEY"}}}}
            - {{name: state, mountPath: /var/lib/agentic-driver}}
      volumes:
        - name: config
          configMap:
            name: {name}-config
  volumeClaimTemplates:
    - metadata:
        name: state
      spec:
        accessModes: [ReadWriteOnce]
        resources:
          requests:
            storage: 1Gi  # at most maxEntries x maxRecordBytes (1,000 x 1 MB by default), written only at a drain
"""


def _service(name: str, port: int, pod: str | None) -> str:
    if pod is None:
        return f"""apiVersion: v1
kind: Service
metadata:
  name: {name}
spec:
  selector:
    app: {name}
  ports:
    - {{name: http, port: {port}, targetPort: http}}
"""
    return f"""apiVersion: v1
kind: Service
metadata:
  name: {pod}
spec:
  selector:
    statefulset.kubernetes.io/pod-name: {pod}
  # A draining pod is not ready but must still get its own sessions' requests.
  publishNotReadyAddresses: true
  ports:
    - {{name: http, port: {port}, targetPort: http}}
"""


_ROUTE_TIMEOUTS = '      timeouts: {request: "0s"}\n'
"""No request timeout (HTTPRouteRequestTimeout, Extended support): a JSON run answers when its turn ends, and a
stream or a rejoin lasts as long as its run, kept from idling by heartbeats. Envoy Gateway, for one, cuts a
request at 15 s by default."""


def _http_route(name: str, port: int, hosts: list[ClusterHost]) -> str:
    rules = "".join(
        f"""    - matches:
        - headers:
            - {{type: Exact, name: Agentic-Host, value: {h.host_id}}}
      backendRefs:
        - {{name: {h.host_id}, port: {port}}}
{_ROUTE_TIMEOUTS}"""
        for h in hosts
    )
    return f"""apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: {name}
spec:
  parentRefs:
    - name: agentic-gateway
  rules:
{rules}    - backendRefs:
        - {{name: {name}, port: {port}}}
{_ROUTE_TIMEOUTS}"""


def check_config(fmt: str, text: str) -> tuple[str, str] | None:
    """Validate ``text`` with the engine's own checker when it is installed: (tool, its output), or None.

    Raises ``ClusterConfigError`` with the checker's output when it rejects the configuration.
    """
    tool = {"haproxy": "haproxy", "nginx": "nginx"}.get(fmt)
    binary = shutil.which(tool) if tool else None
    if tool is None or binary is None:
        return None
    with tempfile.TemporaryDirectory(prefix="agentic-cluster-") as scratch:
        path = Path(scratch) / f"{fmt}.cfg"
        path.write_text(text, encoding="utf-8")
        if fmt == "haproxy":
            command = [binary, "-c", "-f", str(path)]
        else:
            command = [binary, "-t", "-q", "-p", scratch, "-c", str(path)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    output = (done.stdout + done.stderr).strip()
    if done.returncode != 0:
        raise ClusterConfigError(f"{tool} rejects the generated configuration:\n{output}")
    return tool, output
