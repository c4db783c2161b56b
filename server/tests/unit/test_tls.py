"""TLS where tokens travel: the listen-address check, the ``tls`` host JSON section and the serve flags.

Nothing here binds a socket: the refusal is checked through ``main`` with the server replaced by a
recorder (it would bind a public interface if the check were missing), and the SSL context is built
from a throwaway CA's certificate (trustme) without serving it.
"""

from __future__ import annotations

import ssl
from pathlib import Path
from typing import Any

import pytest
import trustme

from agentic_driver import cli
from agentic_driver.config import ConfigError, TlsConfig, parse_config
from agentic_driver.http.tls import check_listen_address, is_loopback, server_ssl_context

ECHO = {"providers": [{"id": "echo", "kind": "echo"}]}


@pytest.mark.parametrize("host", ["127.0.0.1", "127.8.9.10", "::1", "[::1]", "localhost", "LOCALHOST"])
def test_loopback_addresses_are_recognised(host: str) -> None:
    assert is_loopback(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "", "10.0.0.5", "192.168.1.2", "host.example", "my-host"])
def test_every_other_address_or_name_is_a_network_address(host: str) -> None:
    assert not is_loopback(host)


def test_plain_http_on_a_network_address_is_refused_naming_every_way_out() -> None:
    with pytest.raises(ConfigError) as refused:
        check_listen_address("0.0.0.0", TlsConfig())

    message = str(refused.value)
    for setting in ("0.0.0.0", "--tls-cert", "--tls-key", "tls.certFile", "tls.keyFile", "--behind-tls-proxy"):
        assert setting in message
    assert '"terminatedByProxy": true' in message


def test_plain_http_on_loopback_or_behind_a_declared_proxy_is_allowed(tmp_path: Path) -> None:
    check_listen_address("127.0.0.1", TlsConfig())
    check_listen_address("0.0.0.0", TlsConfig(terminatedByProxy=True))
    check_listen_address("0.0.0.0", TlsConfig(certFile="cert.pem", keyFile="key.pem"))


def test_the_tls_section_takes_a_certificate_with_its_key_or_the_proxy_statement() -> None:
    assert parse_config({**ECHO, "tls": {"certFile": "c.pem", "keyFile": "k.pem"}}).tls.direct
    assert parse_config({**ECHO, "tls": {"terminatedByProxy": True}}).tls.terminatedByProxy
    assert parse_config(ECHO).tls == TlsConfig()


@pytest.mark.parametrize(
    ("tls", "problem"),
    [
        ({"certFile": "c.pem"}, "tls: give both certFile and keyFile, or neither"),
        ({"keyFile": "k.pem"}, "tls: give both certFile and keyFile, or neither"),
        (
            {"certFile": "c.pem", "keyFile": "k.pem", "terminatedByProxy": True},
            "tls: give certFile/keyFile (the host terminates TLS) or terminatedByProxy, not both",
        ),
        ({"certfile": "c.pem"}, "tls.certfile: Extra inputs are not permitted"),
    ],
)
def test_a_contradictory_tls_section_is_a_config_problem_at_its_path(tls: dict[str, Any], problem: str) -> None:
    with pytest.raises(ConfigError) as invalid:
        parse_config({**ECHO, "tls": tls})

    assert invalid.value.problems == [problem]


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    directory = tmp_path_factory.mktemp("tls")
    issued = trustme.CA().issue_cert("127.0.0.1", "localhost")
    cert, key = directory / "server.pem", directory / "server.key"
    issued.private_key_and_cert_chain_pem.write_to_path(str(cert))
    issued.private_key_pem.write_to_path(str(key))
    return cert, key


def test_the_server_context_offers_tls_1_2_at_least_and_asks_no_client_certificate(
    certificate: tuple[Path, Path],
) -> None:
    cert, key = certificate

    context = server_ssl_context(TlsConfig(certFile=str(cert), keyFile=str(key)))

    assert context.minimum_version == ssl.TLSVersion.TLSv1_2
    assert context.verify_mode == ssl.CERT_NONE


def test_an_unreadable_certificate_or_key_is_a_config_problem_naming_the_setting(
    tmp_path: Path, certificate: tuple[Path, Path]
) -> None:
    cert, key = certificate
    with pytest.raises(ConfigError) as missing:
        server_ssl_context(TlsConfig(certFile=str(tmp_path / "absent.pem"), keyFile=str(key)))
    assert missing.value.problems[0].startswith("tls.certFile (--tls-cert): cannot read ")

    with pytest.raises(ConfigError) as mismatched:
        server_ssl_context(TlsConfig(certFile=str(cert), keyFile=str(cert.with_name("other.key"))))
    assert mismatched.value.problems[0].startswith("tls.keyFile (--tls-key): cannot read ")

    garbage = tmp_path / "garbage.pem"
    garbage.write_text("not a certificate", encoding="utf-8")
    with pytest.raises(ConfigError) as unusable:
        server_ssl_context(TlsConfig(certFile=str(garbage), keyFile=str(key)))
    assert unusable.value.problems[0].startswith("tls.certFile/tls.keyFile: cannot use ")


class ServeRecorder:
    """Stands in for ``cli.serve``: records what it would have served, binds nothing."""

    def __init__(self) -> None:
        self.calls: list[tuple[TlsConfig, str]] = []

    def __call__(
        self, config: Any, host: str, port: int, log_level: str, log_format: Any = None, config_path: Any = None
    ) -> None:
        self.calls.append((config.tls, host))


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> ServeRecorder:
    recording = ServeRecorder()
    monkeypatch.setattr(cli, "serve", recording)
    return recording


def test_serve_on_a_network_address_without_tls_exits_2_before_serving_or_printing_a_token(
    recorder: ServeRecorder, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(["serve", "--host", "0.0.0.0", "--port", "0"])

    out, err = capsys.readouterr()
    assert code == 2
    assert recorder.calls == []
    assert "refusing to serve plain HTTP on a non-loopback address" in err and "--behind-tls-proxy" in err
    assert "bearer token" not in out


def test_serve_refuses_a_host_json_without_tls_on_a_network_address(
    recorder: ServeRecorder, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "host.json"
    config.write_text('{"providers": [{"id": "echo", "kind": "echo"}]}', encoding="utf-8")

    code = cli.main(["serve", "--config", str(config), "--host", "10.1.2.3"])

    assert code == 2 and recorder.calls == []
    assert "--host 10.1.2.3: refusing" in capsys.readouterr().err


def test_serve_behind_a_declared_proxy_serves_plain_http_on_a_network_address(
    recorder: ServeRecorder, tmp_path: Path
) -> None:
    assert cli.main(["serve", "--host", "0.0.0.0", "--behind-tls-proxy"]) == 0

    config = tmp_path / "host.json"
    config.write_text(
        '{"providers": [{"id": "echo", "kind": "echo"}], "tls": {"terminatedByProxy": true}}', encoding="utf-8"
    )
    assert cli.main(["serve", "--config", str(config), "--host", "0.0.0.0"]) == 0

    assert [(tls.terminatedByProxy, host) for tls, host in recorder.calls] == [(True, "0.0.0.0"), (True, "0.0.0.0")]


def test_the_tls_flags_override_host_json_and_are_checked_together(
    recorder: ServeRecorder, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["serve", "--host", "0.0.0.0", "--tls-cert", "c.pem", "--tls-key", "k.pem"]) == 0
    assert recorder.calls[-1][0] == TlsConfig(certFile="c.pem", keyFile="k.pem")

    assert cli.main(["serve", "--tls-cert", "c.pem"]) == 2
    assert "--tls-cert/--tls-key/--behind-tls-proxy: give both certFile and keyFile" in capsys.readouterr().err
    both = ["serve", "--tls-cert", "c.pem", "--tls-key", "k.pem", "--behind-tls-proxy"]
    assert cli.main(both) == 2
    assert "not both" in capsys.readouterr().err
    assert len(recorder.calls) == 1


def test_serve_with_unloadable_tls_files_exits_2_naming_the_setting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The real serve: it loads the files before it binds, so the refusal comes first.
    absent = str(tmp_path / "absent.pem")

    code = cli.main(["serve", "--port", "0", "--tls-cert", absent, "--tls-key", absent])

    assert code == 2
    assert f"tls.certFile (--tls-cert): cannot read {absent}" in capsys.readouterr().err
