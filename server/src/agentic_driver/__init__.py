"""Agentic Driver: run stateless or session-bound LLM turns on configured provider instances.

Embedded use builds a ``Driver`` and calls it with a trusted ``SessionPrincipal``;
``serve`` (or ``agentic-driver serve``) exposes the same driver over HTTP.
"""

from ._version import __version__
from .auth import SessionPrincipal, TokenPolicy
from .clock import ManualClock, SystemClock
from .config import ConfigError, HostConfig, SessionsConfig, embedded_default, load_config, parse_config
from .driver import LOCAL_PRINCIPAL, Driver
from .errors import CATALOGUE, DriverError, ErrorCode
from .providers import EchoProvider

__all__ = [
    "CATALOGUE",
    "LOCAL_PRINCIPAL",
    "ConfigError",
    "Driver",
    "DriverError",
    "EchoProvider",
    "ErrorCode",
    "HostConfig",
    "ManualClock",
    "SessionPrincipal",
    "SessionsConfig",
    "SystemClock",
    "TokenPolicy",
    "__version__",
    "embedded_default",
    "load_config",
    "parse_config",
]
