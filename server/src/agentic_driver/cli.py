"""The ``agentic-driver`` command.

agentic-driver serve [--config FILE] [--host H] [--port P] [--log-level L] [--log-format text|json]
agentic-driver token create --subject S --providers P... --grants G...
agentic-driver config check FILE
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import secrets
import sys
from collections.abc import Iterator, Mapping

import uvicorn
from fastapi import FastAPI

from . import telemetry
from .auth import TokenPolicy, sha256_hex
from .config import ALL_GRANTS, ConfigError, HostConfig, embedded_default, load_config
from .driver import Driver
from .http import create_app
from .http.limits import Drain
from .http.server import GRACEFUL_CLOSE_S, HostServer, bounded_protocol
from .logs import LOG_FORMATS, LogFormat, Redactor, configure_logging

__all__ = ["build_host", "main", "serve"]


def build_host(config: HostConfig, drain: Drain | None = None) -> tuple[Driver, FastAPI]:
    """The driver and its ASGI app for a validated config."""
    driver = Driver.from_config(config)
    limits = config.limits
    app = create_app(
        driver,
        TokenPolicy(config.tokens),
        max_body_bytes=limits.maxBodyBytes,
        heartbeat_ms=limits.heartbeatMs,
        stream_stall_ms=limits.streamStallMs,
        body_timeout_ms=limits.bodyTimeoutMs,
        drain=drain,
        docs=config.docs,
    )
    return driver, app


def config_secrets(config: HostConfig, env: Mapping[str, str] = os.environ) -> Iterator[str]:
    """Every secret the host's config names or points at (for the log redactor)."""
    for token in config.tokens:
        if token.token is not None:
            yield token.token
        if token.tokenEnv is not None and env.get(token.tokenEnv):
            yield env[token.tokenEnv]
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
) -> None:
    """Serve the host until SIGTERM or SIGINT, then drain (see ``http.server``) and return."""
    configure_logging(log_level, log_format or config.logging.format, Redactor(config_secrets(config)))
    tracing = config.tracing
    if tracing is not None:
        telemetry.configure(tracing.endpoint, tracing.serviceName, tracing.captureMessageContent)
    else:
        telemetry.configure()
    drain = Drain()
    driver, app = build_host(config, drain)
    limits = config.limits
    server_config = uvicorn.Config(
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
    )
    _settle_heap()
    try:
        HostServer(server_config, driver, drain, limits.drainTimeoutMs).run()
    finally:
        telemetry.shutdown()  # export the spans still queued


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
    run.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    run.add_argument(
        "--log-format",
        choices=list(LOG_FORMATS),
        help="text or json (one object per line); default: host JSON logging.format",
    )
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
    return parser


def _token_create(subject: str, providers: list[str], grants: list[str]) -> int:
    secret = secrets.token_urlsafe(32)
    entry = {"subject": subject, "tokenSha256": sha256_hex(secret), "providers": providers, "sessions": grants}
    print(f"token (shown once; give it to the application): {secret}")
    print('host JSON entry for "tokens":')
    print(json.dumps(entry, indent=2))
    return 0


def _config_check(path: str) -> int:
    try:
        load_config(path)
    except ConfigError as error:
        for problem in error.problems:
            print(problem)
        return 1
    print(f"{path}: valid")
    return 0


def main(argv: list[str] | None = None) -> int:
    options = _parser().parse_args(argv)
    if options.command == "token":
        return _token_create(options.subject, options.providers, options.grants)
    if options.command == "config":
        return _config_check(options.file)
    try:
        if options.config:
            config = load_config(options.config)
        else:
            config, token = embedded_default()
            print(f"agentic-driver: embedded default host; bearer token: {token}", flush=True)
        serve(config, options.host, options.port, options.log_level, options.log_format)
    except ConfigError as error:
        print(f"agentic-driver: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
