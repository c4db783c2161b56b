"""Provider adapters behind one protocol (``base``), built from host config by ``ADAPTERS``.

echo               offline, deterministic (echo.py)
openai-responses   OpenAI Responses API, native + history (openai_responses.py)
anthropic          Anthropic Messages API, native + history (anthropic.py)
gemini             Gemini generateContent, native + history (gemini.py)
openai-chat        OpenAI-compatible chat completions, history only (openai_chat.py)
cli                a local command, prompt on stdin, reply on stdout, history only (cli.py)

The four network providers are one adapter (network.py's ``NetworkAdapter``: config, a retried turn, a
step that maps, sends and processes, over upstream.py's HTTP side) running the wire mapping each one's
module declares as data (its ``WIRE``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

from ..config import ProviderConfig
from .base import Capabilities, ModelRequest, Provider, ProviderFailure, VisibleMessage
from .echo import EchoProvider

if TYPE_CHECKING:
    from .anthropic import AnthropicProvider
    from .cli import CliProvider
    from .gemini import GeminiProvider
    from .openai_chat import OpenAIChatProvider
    from .openai_responses import OpenAIResponsesProvider

__all__ = [
    "ADAPTERS",
    "Adapter",
    "AnthropicProvider",
    "Capabilities",
    "CliProvider",
    "EchoProvider",
    "GeminiProvider",
    "ModelRequest",
    "OpenAIChatProvider",
    "OpenAIResponsesProvider",
    "Provider",
    "ProviderFailure",
    "VisibleMessage",
    "build_provider",
]


@dataclass(frozen=True, slots=True)
class Adapter:
    """How one ``kind`` is built from its config: ``built_by.from_config(config, where, env, max_connections=)``,
    ``built_by`` being an attribute of ``module``, which is imported on first use."""

    module: str
    provider: str
    """The class its instances are, which the package exports (``providers.AnthropicProvider``)."""
    built_by: str = ""
    """What in ``module`` builds it (a network provider's ``WIRE``); ``provider`` itself by default."""

    def build(self, config: Any, where: str, env: Mapping[str, str], *, max_connections: int) -> Provider:
        builder = getattr(import_module(self.module, __name__), self.built_by or self.provider)
        made: Provider = builder.from_config(config, where, env, max_connections=max_connections)
        return made


ADAPTERS: Mapping[str, Adapter] = {
    "echo": Adapter(".echo", "EchoProvider"),
    "openai-responses": Adapter(".openai_responses", "OpenAIResponsesProvider", "WIRE"),
    "anthropic": Adapter(".anthropic", "AnthropicProvider", "WIRE"),
    "gemini": Adapter(".gemini", "GeminiProvider", "WIRE"),
    "openai-chat": Adapter(".openai_chat", "OpenAIChatProvider", "WIRE"),
    "cli": Adapter(".cli", "CliProvider"),
}
"""Every provider ``kind`` (``config.PROVIDER_KINDS``) -> how it is built. A module is imported on first use:
a host that configures none of the network providers (the embedded default) starts without httpx and
the adapters (about 70 ms of its start-up)."""


def __getattr__(name: str) -> Any:
    for adapter in ADAPTERS.values():
        if adapter.provider == name:
            return getattr(import_module(adapter.module, __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def build_provider(
    config: ProviderConfig,
    where: str = "provider",
    env: Mapping[str, str] = os.environ,
    *,
    max_connections: int = 64,
) -> Provider:
    """The adapter instance for one configured provider (``ADAPTERS[config.kind]``).

    ``where`` is the config path named in errors (a missing API key variable
    is a ``ConfigError`` at startup, never a failure at the first run);
    ``max_connections`` bounds a network adapter's connection pool.
    """
    return ADAPTERS[config.kind].build(config, where, env, max_connections=max_connections)
