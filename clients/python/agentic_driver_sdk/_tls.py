"""Which certificate authorities a client trusts for an ``https://`` host.

By default httpx's: the ``certifi`` bundle, or ``SSL_CERT_FILE`` / ``SSL_CERT_DIR`` when set.
``ca_bundle`` replaces them with the caller's PEM certificates (a file path, or the PEM bytes),
so a host whose certificate a private CA signed is verified, never trusted blindly.
"""

from __future__ import annotations

import os
import ssl
from typing import Union

import httpx

__all__ = ["CABundle", "ssl_verification"]

CABundle = Union[str, "os.PathLike[str]", bytes]
"""A PEM file of CA certificates (its path), or the PEM text itself as bytes."""


def ssl_verification(
    ca_bundle: CABundle | None, transport: httpx.BaseTransport | httpx.AsyncBaseTransport | None
) -> ssl.SSLContext | bool:
    """httpx's ``verify``: ``True`` (its defaults) without a bundle, else a context trusting only the bundle."""
    if ca_bundle is None:
        return True
    if transport is not None:
        raise ValueError("give ca_bundle or transport, not both: a transport makes its own TLS settings")
    try:
        if isinstance(ca_bundle, bytes):
            return ssl.create_default_context(cadata=ca_bundle.decode("ascii"))
        return ssl.create_default_context(cafile=os.fspath(ca_bundle))
    except (OSError, ssl.SSLError, UnicodeDecodeError) as error:
        what = "the PEM bytes" if isinstance(ca_bundle, bytes) else os.fspath(ca_bundle)
        raise ValueError(f"ca_bundle: cannot load CA certificates from {what}: {error}") from error
