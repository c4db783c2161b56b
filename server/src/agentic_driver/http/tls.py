"""TLS where tokens travel: the host's own HTTPS, and the check that refuses plain HTTP off loopback.

Remote applications send bearer tokens on every request, so plain HTTP is only
served where nobody else can listen: a loopback address. Anywhere else the host
either terminates TLS itself (``tls.certFile`` / ``tls.keyFile``, or
``--tls-cert`` / ``--tls-key``) or the operator states that a proxy in front
does (``tls.terminatedByProxy``, or ``--behind-tls-proxy``); otherwise
``serve`` refuses to start, naming those settings.

The host's TLS is uvicorn's (the standard library's ``ssl``), with TLS 1.2 as
the lowest version offered.
"""

from __future__ import annotations

import ipaddress
import ssl

from ..config import ConfigError, TlsConfig

__all__ = ["MINIMUM_TLS_VERSION", "check_listen_address", "is_loopback", "server_ssl_context"]

MINIMUM_TLS_VERSION = ssl.TLSVersion.TLSv1_2

LOOPBACK_NAMES = frozenset({"localhost", "localhost.", "ip6-localhost"})
"""Names that resolve to loopback on every host; any other name counts as a network address."""


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` listens on loopback only (``127.0.0.0/8``, ``::1``, ``localhost``).

    An unknown host name is not resolved: it counts as a network address, so a name
    that happens to resolve to loopback today is still asked for TLS.
    """
    name = host.strip().strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def check_listen_address(host: str, tls: TlsConfig) -> None:
    """Raise ``ConfigError`` when ``host`` is not loopback and nothing protects the tokens on the wire."""
    if tls.direct or tls.terminatedByProxy or is_loopback(host):
        return
    raise ConfigError(
        [
            f"--host {host}: refusing to serve plain HTTP on a non-loopback address: every bearer token "
            "would cross the network unencrypted. Serve TLS (--tls-cert FILE --tls-key FILE, or "
            "tls.certFile and tls.keyFile in host JSON), or state that a proxy in front terminates TLS "
            '(--behind-tls-proxy, or "tls": {"terminatedByProxy": true}); or bind 127.0.0.1.'
        ]
    )


def server_ssl_context(tls: TlsConfig) -> ssl.SSLContext:
    """The server context for ``tls.certFile`` / ``tls.keyFile``: TLS 1.2 at least, no client certificates.

    Loading here (not inside uvicorn) turns an unreadable or mismatched file into a
    ``ConfigError`` naming the setting, before the port is bound.
    """
    if tls.certFile is None or tls.keyFile is None:
        raise ValueError("server_ssl_context needs tls.certFile and tls.keyFile")
    for setting, path in (("tls.certFile (--tls-cert)", tls.certFile), ("tls.keyFile (--tls-key)", tls.keyFile)):
        try:
            with open(path, "rb"):
                pass
        except OSError as error:
            raise ConfigError([f"{setting}: cannot read {path}: {error.strerror}"]) from None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = MINIMUM_TLS_VERSION
    try:
        context.load_cert_chain(tls.certFile, tls.keyFile)
    except (OSError, ssl.SSLError) as error:
        raise ConfigError(
            [f"tls.certFile/tls.keyFile: cannot use {tls.certFile} with {tls.keyFile} (PEM chain and its key): {error}"]
        ) from None
    return context
