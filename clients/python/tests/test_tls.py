"""A host serving HTTPS with a certificate from a throwaway CA (trustme), and clients that trust that CA.

The host is the real ``agentic-driver serve --tls-cert --tls-key`` on a free loopback port. Each
client completes a session turn trusting the CA given as a file path, as PEM bytes, or through
``SSL_CERT_FILE``; a client that does not trust it fails with ``APIConnectionError`` (never an
unverified connection, never a bare ``httpx``/``ssl`` error).
"""

from __future__ import annotations

import json
import ssl
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import agentic_driver_testing as testing
import httpx
import pytest
import trustme

from agentic_driver_sdk import AgenticDriver, APIConnectionError, AsyncAgenticDriver

from .conftest import STARTUP_TIMEOUT_S, TOKEN, config


@dataclass
class TlsHost:
    base_url: str
    ca_file: Path
    ca_pem: bytes
    process: subprocess.Popen[bytes]


@pytest.fixture(scope="module")
def tls_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TlsHost]:
    directory = tmp_path_factory.mktemp("tls")
    ca = trustme.CA()
    issued = ca.issue_cert("127.0.0.1", "localhost")
    ca_file, cert, key = directory / "ca.pem", directory / "server.pem", directory / "server.key"
    ca.cert_pem.write_to_path(str(ca_file))
    issued.private_key_and_cert_chain_pem.write_to_path(str(cert))
    issued.private_key_pem.write_to_path(str(key))
    (directory / "host.json").write_text(json.dumps(config("sdk-tls")), encoding="utf-8")
    started = testing.start(
        lambda port: testing.serve_command(
            port, "--config", str(directory / "host.json"), "--tls-cert", str(cert), "--tls-key", str(key)
        ),
        lambda attempt, port: directory / f"host-{attempt}.log",
        name="the TLS host",
        timeout_s=STARTUP_TIMEOUT_S,
        tls=ssl.create_default_context(cafile=ca_file),
    )
    try:
        yield TlsHost(f"https://localhost:{started.port}", ca_file, ca.cert_pem.bytes(), started.process)
    finally:
        started.stop()


def _session_turn(client: AgenticDriver) -> None:
    session = client.sessions.create(provider="echo", model="echo-1", mode="history")
    result = client.run(provider="echo", model="echo-1", input="over TLS", session=session)
    assert result.output.text == "echo: over TLS"
    assert result.session is not None and result.session.revision == session.revision + 1


def test_a_client_trusting_the_ca_file_completes_a_session_turn(tls_host: TlsHost) -> None:
    with AgenticDriver(base_url=tls_host.base_url, token=TOKEN, ca_bundle=tls_host.ca_file) as client:
        _session_turn(client)


def test_a_client_trusting_the_ca_pem_bytes_completes_a_session_turn_on_the_ip_address(tls_host: TlsHost) -> None:
    base_url = tls_host.base_url.replace("localhost", "127.0.0.1")
    with AgenticDriver(base_url=base_url, token=TOKEN, ca_bundle=tls_host.ca_pem) as client:
        _session_turn(client)


def test_ssl_cert_file_is_honoured_without_any_option(tls_host: TlsHost, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(tls_host.ca_file))

    with AgenticDriver(base_url=tls_host.base_url, token=TOKEN) as client:
        _session_turn(client)


async def test_the_async_client_trusts_the_ca_and_its_copies_keep_it(tls_host: TlsHost) -> None:
    async with AsyncAgenticDriver(base_url=tls_host.base_url, token=TOKEN, ca_bundle=tls_host.ca_file) as client:
        copy = client.with_options(max_retries=0)
        async with copy:
            session = await copy.sessions.create(provider="echo", model="echo-1", mode="history")
            result = await copy.run(provider="echo", model="echo-1", input="async", session=session)
    assert result.output.text == "echo: async"


@pytest.mark.parametrize("another_ca", [False, True], ids=["default-trust", "another-ca"])
def test_a_client_that_does_not_trust_the_ca_fails_with_its_connection_error(
    tls_host: TlsHost, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, another_ca: bool
) -> None:
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    trust: dict[str, Any] = {}
    if another_ca:
        trust["ca_bundle"] = tmp_path / "other-ca.pem"
        trustme.CA().cert_pem.write_to_path(str(trust["ca_bundle"]))

    client = AgenticDriver(base_url=tls_host.base_url, token=TOKEN, max_retries=0, **trust)
    with client, pytest.raises(APIConnectionError) as failed:
        client.sessions.create(provider="echo", model="echo-1", mode="history")

    assert isinstance(failed.value.__cause__, httpx.ConnectError)
    assert "CERTIFICATE_VERIFY_FAILED" in str(failed.value)


async def test_the_async_client_that_does_not_trust_the_ca_fails_with_its_connection_error(
    tls_host: TlsHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    async with AsyncAgenticDriver(base_url=tls_host.base_url, token=TOKEN, max_retries=0) as client:
        with pytest.raises(APIConnectionError):
            await client.discovery()


def test_an_unloadable_ca_bundle_is_refused_when_the_client_is_built(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"^ca_bundle: cannot load CA certificates from .*absent\.pem"):
        AgenticDriver(base_url="https://localhost:1", ca_bundle=tmp_path / "absent.pem")
    with pytest.raises(ValueError, match=r"^ca_bundle: cannot load CA certificates from the PEM bytes"):
        AgenticDriver(base_url="https://localhost:1", ca_bundle=b"-----BEGIN CERTIFICATE-----\nnot base64\n")
    with pytest.raises(ValueError, match="give ca_bundle or transport, not both"):
        AgenticDriver(base_url="https://localhost:1", ca_bundle=b"", transport=httpx.HTTPTransport())
