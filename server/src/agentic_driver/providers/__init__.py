"""Provider adapters behind one protocol (``base``), built from host config here.

echo               offline, deterministic (echo.py)
openai-responses   OpenAI Responses API, native + history (openai_responses.py)
anthropic          Anthropic Messages API, native + history (anthropic.py)
gemini             Gemini generateContent, native + history (gemini.py)
openai-chat        OpenAI-compatible chat completions, history only (openai_chat.py)
cli                a local command, prompt on stdin, reply on stdout, history only (cli.py)

The four network adapters share one skeleton (network.py: config, a retried turn, a step that maps,
sends and processes) and one HTTP side (upstream.py); each keeps only its wire mapping.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from importlib import import_module
from typing import TYPE_CHECKING, Any

from ..config import (
    AnthropicProviderConfig,
    CliProviderConfig,
    EchoProviderConfig,
    GeminiProviderConfig,
    OpenAIChatProviderConfig,
    OpenAIResponsesProviderConfig,
    ProviderConfig,
)
from .base import Capabilities, ModelRequest, Provider, ProviderFailure, VisibleMessage
from .echo import EchoProvider

if TYPE_CHECKING:
    from .anthropic import AnthropicProvider
    from .cli import CliProvider
    from .gemini import GeminiProvider
    from .network import NetworkAdapter
    from .openai_chat import OpenAIChatProvider
    from .openai_responses import OpenAIResponsesProvider

_UPSTREAM_ADAPTERS = {
    "AnthropicProvider": ".anthropic",
    "CliProvider": ".cli",
    "GeminiProvider": ".gemini",
    "OpenAIChatProvider": ".openai_chat",
    "OpenAIResponsesProvider": ".openai_responses",
}
"""Imported on first use: a host that configures none of them (the embedded default) starts without
httpx and the adapters (about 70 ms of its start-up)."""


def __getattr__(name: str) -> Any:
    module = _UPSTREAM_ADAPTERS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(module, __name__), name)


__all__ = [
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


_NETWORK_ADAPTERS: dict[type[ProviderConfig], str] = {
    OpenAIResponsesProviderConfig: "OpenAIResponsesProvider",
    AnthropicProviderConfig: "AnthropicProvider",
    GeminiProviderConfig: "GeminiProvider",
    OpenAIChatProviderConfig: "OpenAIChatProvider",
}
"""Each network kind's config -> its adapter (all built by ``NetworkAdapter.from_config``)."""


def build_provider(
    config: ProviderConfig,
    where: str = "provider",
    env: Mapping[str, str] = os.environ,
    *,
    max_connections: int = 64,
) -> Provider:
    """The adapter instance for one configured provider (dispatches on ``kind``).

    ``where`` is the config path named in errors (a missing API key variable
    is a ``ConfigError`` at startup, never a failure at the first run);
    ``max_connections`` bounds a network adapter's connection pool.
    """
    if isinstance(config, EchoProviderConfig):
        return EchoProvider.from_config(config)
    if isinstance(config, CliProviderConfig):
        from .cli import CliProvider

        return CliProvider.from_config(config)
    adapter: type[NetworkAdapter[Any, Any]] = __getattr__(_NETWORK_ADAPTERS[type(config)])
    return adapter.from_config(config, where, env, max_connections=max_connections)
