"""The ``agentic-driver`` command.

agentic-driver serve [--config FILE] [--host H] [--port P] [--host-id ID] [--log-level L] [--log-format text|json]
                     [--tls-cert FILE --tls-key FILE | --behind-tls-proxy]
agentic-driver reload --pid PID [--config FILE]
agentic-driver token create --subject S --providers P... --grants G...
agentic-driver config check FILE
agentic-driver cluster config --host ID=ADDR ... --format haproxy|nginx|gateway-api [--bind ADDR:PORT]
                                   [--token-runs-per-minute N]
agentic-driver qualify --config FILE --provider ID --model M [--record FILE] [--no-tool-round]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import logging
import os
import secrets
import signal
import ssl
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI
from pydantic import ValidationError

from . import cluster, snapshot, telemetry
from .auth import sha256_hex
from .bearer import Authenticator, BearerPolicy
from .config import (
    ALL_GRANTS,
    HOST_ID_ENV,
    ConfigError,
    HostConfig,
    QualificationConfig,
    TlsConfig,
    embedded_default,
    load_config,
    with_host_id,
)
from .driver import Driver
from .http import create_app
from .http.limits import Drain
from .http.metrics_access import MetricsAccess, metrics_app
from .http.server import GRACEFUL_CLOSE_S, HostServer, bounded_protocol
from .http.tls import check_listen_address, server_ssl_context
from .logs import LOG_FORMATS, LogFormat, Redactor, configure_logging

__all__ = ["build_host", "main", "serve"]


log = logging.getLogger("agentic_driver.http")


def build_host(
    config: HostConfig,
    drain: Drain | None = None,
    metrics_access: MetricsAccess | None = None,
    auth: Authenticator | None = None,
) -> tuple[Driver, FastAPI]:
    """The driver and its ASGI app for a validated config (``auth``: its bearer policy, built if not given)."""
    driver = Driver.from_config(config)
    limits = config.limits
    app = create_app(
        driver,
        auth or Authenticator(BearerPolicy.from_config(config)),
        max_body_bytes=limits.maxBodyBytes,
        heartbeat_ms=limits.heartbeatMs,
        stream_stall_ms=limits.streamStallMs,
        body_timeout_ms=limits.bodyTimeoutMs,
        drain=drain,
        docs=config.docs,
        metrics_access=metrics_access,
    )
    return driver, app


def config_secrets(config: HostConfig, env: Mapping[str, str] = os.environ) -> Iterator[str]:
    """Every secret the host's config names or points at (for the log redactor)."""
    for token in config.tokens:
        if token.token is not None:
            yield token.token
        if token.tokenEnv is not None and env.get(token.tokenEnv):
            yield env[token.tokenEnv]
    kept = snapshot.configured(config)
    if kept is not None and env.get(kept.keyEnv):
        yield env[kept.keyEnv]
    for provider in config.providers:
        key_env = getattr(provider, "apiKeyEnv", None)
        if key_env is not None and env.get(key_env):
            yield env[key_env]


def serve(
    config: HostConfig,
    host: str = "127.0.0.1",
    port: int = 8080,
    log_level: str = "info",
    log_format: LogFormat | None = None,
    config_path: str | None = None,
) -> None:
    """Serve the host until SIGTERM or SIGINT, then drain (see ``http.server``) and return.

    On SIGHUP the ``tokens`` and ``auth`` blocks are read again from ``config_path`` (``reload_auth``).
    Raises ``ConfigError`` before binding when ``host`` is not loopback and ``config.tls`` neither
    serves TLS nor says that a proxy terminates it, or when its certificate or key cannot be loaded.
    """
    check_listen_address(host, config.tls)
    ssl_context = server_ssl_context(config.tls) if config.tls.direct else None
    redactor = Redactor(config_secrets(config))
    configure_logging(log_level, log_format or config.logging.format, redactor)
    tracing = config.tracing
    if tracing is not None:
        telemetry.configure(
            tracing.endpoint, tracing.serviceName, tracing.captureMessageContent, gen_ai_system=tracing.emitGenAiSystem
        )
    else:
        telemetry.configure()
    drain = Drain()
    access = MetricsAccess.of(config.metrics, host)
    auth = Authenticator(BearerPolicy.from_config(config))
    driver, app = build_host(config, drain, access, auth)
    kept = snapshot.configured(config)
    key = snapshot.load_key(kept) if kept is not None else b""
    if kept is not None:
        restored = driver.restored = snapshot.restore_at_start(driver, kept, key)
        if restored is not None:
            driver.metrics.snapshot_restored(restored.sessions, restored.idempotency_keys, restored.dropped)
    limits = config.limits
    server_config = _uvicorn_config(app, host, port, log_level, config, driver, ssl_context)
    metrics_config = None
    if config.metrics.listen is not None:
        listen = config.metrics.listen
        # The scrape address is served like the API: over the host's own TLS when it has a certificate.
        metrics_config = _uvicorn_config(
            metrics_app(driver.metrics, access), listen.host, listen.port, log_level, config, driver, ssl_context
        )
    elif not access.on_api:
        log.warning(
            "/metrics is not served: %s is not a loopback address; set metrics.token or metrics.listen "
            "in the host JSON to expose it (docs/operating.md, Exposing metrics)",
            host,
        )
    _settle_heap()
    try:
        HostServer(
            server_config,
            driver,
            drain,
            limits.drainTimeoutMs,
            metrics_config,
            drain_read_window_ms=limits.drainReadWindowMs,
            on_reload=lambda: reload_auth(config_path, auth, redactor),
        ).run()
    except SystemExit:
        if kept is not None and driver.restored is not None and not drain.draining:
            snapshot.write_after_drain(driver, kept, key)  # it never served: hand back what it restored
        raise
    finally:
        telemetry.shutdown()  # export the spans still queued
    if kept is not None and drain.draining:
        snapshot.write_after_drain(driver, kept, key)


def reload_auth(config_path: str | None, auth: Authenticator, redactor: Redactor) -> bool:
    """Read host JSON again and make its ``tokens`` and ``auth`` blocks current (on SIGHUP); whether it did.

    The whole file is validated as at start; if it (or a ``tokenEnv``, a ``jwksFile``) cannot be used, the
    current policy stays and the log says why (problems name JSON paths, never a secret). Sessions, runs
    and connections are untouched; a request already authenticated finishes as it began."""
    if config_path is None:
        log.warning("SIGHUP: nothing to reload: the host runs the embedded default (no --config file)")
        return False
    try:
        config = load_config(config_path)
        redactor.add(config_secrets(config))  # before any line could show a new secret
        policy = auth.replace(config)
    except ConfigError as error:
        log.error(
            "SIGHUP: %s not reloaded, the tokens and auth in force stay: %s", config_path, "; ".join(error.problems)
        )
        return False
    except Exception:
        log.exception("SIGHUP: %s not reloaded, the tokens and auth in force stay", config_path)
        return False
    log.info(
        "SIGHUP: tokens and auth reloaded from %s: %r (other blocks take effect at the next start)",
        config_path,
        policy,
    )
    return True


def _uvicorn_config(
    app: Any,
    host: str,
    port: int,
    log_level: str,
    config: HostConfig,
    driver: Driver,
    ssl_context: ssl.SSLContext | None,
) -> uvicorn.Config:
    limits = config.limits
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        log_config=None,  # configure_logging's handler formats uvicorn's lines too
        access_log=False,  # the host writes its own closing line per request (logger agentic_driver.access)
        http=bounded_protocol(limits, driver.metrics),
        timeout_keep_alive=limits.keepAliveTimeoutMs / 1000,  # type: ignore[arg-type]  # any number of seconds
        timeout_graceful_shutdown=GRACEFUL_CLOSE_S,  # type: ignore[arg-type]
        lifespan="off",
        # Nothing in the host reads the client's address, so X-Forwarded-* rewriting (a middleware layer on
        # every request) buys nothing; and the Server header only advertises the stack.
        proxy_headers=False,
        server_header=False,
        ssl_context_factory=None if ssl_context is None else lambda _config, _default: ssl_context,
    )


GC_YOUNG_THRESHOLD = 20_000
"""Allocations (net of frees) between young-generation collections; CPython's default is 700."""


def _settle_heap() -> None:
    """Move what start-up built (modules, validators, config) out of the collector's reach, and collect
    the young generation less often.

    A turn allocates a few hundred container objects that are almost all freed by the
    end of its request, so at the default threshold the collector ran about every
    other request and walked the start-up heap on every older-generation pass.
    Measured in bench/README.md.
    """
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, older, oldest)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="agentic-driver", description="The Agentic Driver reference host.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("serve", help="serve the host over HTTP")
    run.add_argument("--config", help="host JSON file (default: the embedded default with the echo provider)")
    run.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    run.add_argument("--port", type=int, default=8080, help="port to bind (default 8080; 0 picks a free one)")
    run.add_argument(
        "--host-id",
        help=f"this process's name in session and run ids (a DNS label); overrides {HOST_ID_ENV} and hostId",
    )
    run.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    run.add_argument("--tls-cert", metavar="FILE", help="serve HTTPS with this PEM certificate chain (tls.certFile)")
    run.add_argument("--tls-key", metavar="FILE", help="the PEM private key of --tls-cert (tls.keyFile)")
    run.add_argument(
        "--behind-tls-proxy",
        action="store_true",
        help="a proxy in front terminates TLS: allow plain HTTP on a non-loopback --host (tls.terminatedByProxy)",
    )
    run.add_argument(
        "--log-format",
        choices=list(LOG_FORMATS),
        help="text or json (one object per line); default: host JSON logging.format",
    )
    reload = commands.add_parser(
        "reload", help="make a running host re-read the tokens and auth blocks of its --config file (SIGHUP)"
    )
    reload.add_argument("--pid", type=int, required=True, help="the host's process id")
    reload.add_argument("--config", metavar="FILE", help="check this file (the host's) first; signal only if valid")
    token = commands.add_parser("token", help="operator tooling for bearer tokens").add_subparsers(
        dest="token_command", required=True
    )
    create = token.add_parser("create", help="print a new random token once, and its host JSON entry (hashed)")
    create.add_argument("--subject", required=True, help="the subject that owns the sessions this token creates")
    create.add_argument("--providers", nargs="+", required=True, metavar="P", help="provider ids, or * for all")
    create.add_argument(
        "--grants", nargs="*", default=[], choices=list(ALL_GRANTS), metavar="G", help=" ".join(ALL_GRANTS)
    )
    config = commands.add_parser("config", help="operator tooling for host JSON").add_subparsers(
        dest="config_command", required=True
    )
    check = config.add_parser("check", help="validate a host config; print every problem with its JSON path")
    check.add_argument("file")
    cluster_commands = commands.add_parser("cluster", help="operator tooling for many host processes").add_subparsers(
        dest="cluster_command", required=True
    )
    proxy = cluster_commands.add_parser(
        "config", help="print a proxy configuration that routes each session's requests to its host"
    )
    proxy.add_argument("--host", action="append", required=True, metavar="ID=ADDR", help="a host id and HOST:PORT")
    proxy.add_argument("--format", required=True, choices=cluster.FORMATS)
    proxy.add_argument("--bind", default=cluster.DEFAULT_BIND, help="where the proxy listens (haproxy, nginx)")
    proxy.add_argument("--no-check", action="store_true", help="skip haproxy -c / nginx -t even when installed")
    proxy.add_argument(
        "--token-runs-per-minute",
        type=int,
        metavar="N",
        help="haproxy: refuse a bearer token's new runs and sessions over N a minute, over all hosts (429)",
    )
    qualify = commands.add_parser(
        "qualify", help="qualify live native continuation of one instance and model; print and write the record"
    )
    qualify.add_argument("--config", required=True, help="host JSON file that configures the instance")
    qualify.add_argument("--provider", required=True, metavar="ID", help="the provider instance id")
    qualify.add_argument("--model", required=True, metavar="M", help="one of the instance's models")
    qualify.add_argument(
        "--record",
        metavar="FILE",
        help="where to write the record (default: {qualification.recordDir}/{provider}/{model}.json, "
        "recordDir defaulting to ./qualification)",
    )
    qualify.add_argument(
        "--no-tool-round",
        action="store_true",
        help="send no tools and leave out the function round (for a deployment that refuses tools)",
    )
    return parser


def _qualify(config_path: str, provider: str, model: str, record: str | None, tool_round: bool = True) -> int:
    from . import qualify  # only this command needs it at start-up

    try:
        config = load_config(config_path)
        outcome = asyncio.run(qualify.qualify(config, provider, model, tool_round=tool_round))
    except (ConfigError, qualify.QualificationError) as error:
        print(f"agentic-driver: cannot qualify: {error}", file=sys.stderr)
        return 2
    directory = (config.qualification or QualificationConfig()).recordDir
    path = Path(record) if record is not None else qualify.record_path(directory, provider, model)
    body = outcome.record()
    qualify.write_record(path, body)
    for turn in outcome.reports:
        print(
            f"turn {turn.turn} ({turn.purpose}): {turn.outcome}, replayed {turn.replayedItems} stored items, "
            f"{turn.toolRounds} tool rounds, {turn.storedItems} stored after",
            file=sys.stderr,
        )
    verdict = "passed" if outcome.passed else f"FAILED: {outcome.failure}"
    print(f"agentic-driver: qualification of {provider!r} model {model!r} {verdict}; record: {path}", file=sys.stderr)
    print(json.dumps(body, indent=2))
    return 0 if outcome.passed else 1


def _token_create(subject: str, providers: list[str], grants: list[str]) -> int:
    secret = secrets.token_urlsafe(32)
    entry = {"subject": subject, "tokenSha256": sha256_hex(secret), "providers": providers, "sessions": grants}
    print(f"token (shown once; give it to the application): {secret}")
    print('host JSON entry for "tokens":')
    print(json.dumps(entry, indent=2))
    return 0


def _reload(pid: int, config_path: str | None) -> int:
    if config_path is not None:
        try:
            load_config(config_path)
        except ConfigError as error:
            for problem in error.problems:
                print(problem)
            print(f"agentic-driver: {config_path} is not valid: no signal sent", file=sys.stderr)
            return 1
    try:
        os.kill(pid, signal.SIGHUP)
    except OSError as error:
        print(f"agentic-driver: cannot signal process {pid}: {error.strerror}", file=sys.stderr)
        return 1
    print(
        f"agentic-driver: sent SIGHUP to {pid}: it re-reads tokens and auth from its --config file; "
        "its log says whether it did",
        file=sys.stderr,
    )
    return 0


def _config_check(path: str) -> int:
    try:
        config = load_config(path)
    except ConfigError as error:
        for problem in error.problems:
            print(problem)
        return 1
    problems = snapshot_problems(config) + jwks_file_problems(config)
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"{path}: valid")
    return 0


def jwks_file_problems(config: HostConfig) -> list[str]:
    """What would keep an ``auth.jwt`` issuer's ``jwksFile`` from being read (a ``jwksUrl`` is not fetched)."""
    if not any(issuer.jwksFile is not None for issuer in config.auth.jwt):
        return []
    from .auth_jwt import JwtIssuers  # PyJWT only for a config that has issuers

    try:
        JwtIssuers(config.auth.jwt)
    except ConfigError as error:
        return error.problems
    return []


def snapshot_problems(config: HostConfig, environ: Mapping[str, str] = os.environ) -> list[str]:
    """What would keep ``sessions.snapshot`` from working where this runs: the key, the file's directory."""
    kept = snapshot.configured(config)
    if kept is None:
        return []
    problems = []
    try:
        snapshot.load_key(kept, environ)
    except snapshot.SnapshotRefused as error:
        problems.append(str(error))
    directory = snapshot.snapshot_path(kept, config.hostId).parent
    if not directory.is_dir():
        problems.append(f"sessions.snapshot.path: the directory {directory} does not exist")
    elif not os.access(directory, os.W_OK | os.X_OK):
        problems.append(f"sessions.snapshot.path: the host cannot write in {directory}")
    return problems


def with_tls_options(config: HostConfig, cert: str | None, key: str | None, behind_proxy: bool) -> HostConfig:
    """``config`` with the command line's TLS options over its ``tls`` section (checked together)."""
    if cert is None and key is None and not behind_proxy:
        return config
    merged = config.tls.model_dump(exclude_none=True)
    if cert is not None or key is not None:
        merged.update(certFile=cert, keyFile=key, terminatedByProxy=False)
    if behind_proxy:
        merged.update(terminatedByProxy=True)
    try:
        tls = TlsConfig.model_validate(merged)
    except ValidationError as error:
        problems = [str(e["msg"]).removeprefix("Value error, ") for e in error.errors()]
        raise ConfigError([f"--tls-cert/--tls-key/--behind-tls-proxy: {problem}" for problem in problems]) from None
    return config.model_copy(update={"tls": tls})


def _cluster_config(hosts: list[str], fmt: str, bind: str, check: bool, token_rate: int | None) -> int:
    try:
        text = cluster.render(fmt, cluster.parse_hosts(hosts), cluster.parse_bind(bind), token_rate)
        checked = cluster.check_config(fmt, text) if check else None
    except cluster.ClusterConfigError as error:
        print(f"agentic-driver: {error}", file=sys.stderr)
        return 1
    sys.stdout.write(text)
    if checked is not None:
        print(f"agentic-driver: {checked[0]} accepts the configuration", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    options = _parser().parse_args(argv)
    if options.command == "reload":
        return _reload(options.pid, options.config)
    if options.command == "token":
        return _token_create(options.subject, options.providers, options.grants)
    if options.command == "config":
        return _config_check(options.file)
    if options.command == "cluster":
        return _cluster_config(
            options.host, options.format, options.bind, not options.no_check, options.token_runs_per_minute
        )
    if options.command == "qualify":
        return _qualify(options.config, options.provider, options.model, options.record, not options.no_tool_round)
    try:
        config, token = (load_config(options.config), None) if options.config else embedded_default()
        config = with_tls_options(config, options.tls_cert, options.tls_key, options.behind_tls_proxy)
        check_listen_address(options.host, config.tls)  # before a token is printed
        if token is not None:
            print(f"agentic-driver: embedded default host; bearer token: {token}", flush=True)
        config = with_host_id(config, options.host_id)
        serve(config, options.host, options.port, options.log_level, options.log_format, config_path=options.config)
    except ConfigError as error:
        print(f"agentic-driver: {error}", file=sys.stderr)
        return 2
    except snapshot.SnapshotRefused as error:
        print(f"agentic-driver: not starting: {error}", file=sys.stderr)
        return 3
    except snapshot.SnapshotNotWritten as error:
        print(f"agentic-driver: {error}", file=sys.stderr)
        return 4
    return 0


if __name__ == "__main__":
    sys.exit(main())
