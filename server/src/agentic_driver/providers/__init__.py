"""Provider adapters behind one protocol (``base``), built from host config here."""

from __future__ import annotations

from ..config import ProviderConfig
from .base import Capabilities, ModelRequest, Provider, ProviderFailure, VisibleMessage
from .echo import EchoProvider

__all__ = [
    "Capabilities",
    "EchoProvider",
    "ModelRequest",
    "Provider",
    "ProviderFailure",
    "VisibleMessage",
    "build_provider",
]


def build_provider(config: ProviderConfig) -> Provider:
    """The adapter instance for one configured provider (dispatches on ``kind``)."""
    return EchoProvider.from_config(config)
