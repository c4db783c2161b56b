"""Provider adapters behind one protocol (``base``), built from host config here.

echo               offline, deterministic (echo.py)
openai-responses   OpenAI Responses API, native + history (openai_responses.py)
anthropic          Anthropic Messages API, native + history (anthropic.py)
gemini             Gemini generateContent, native + history (gemini.py)
openai-chat        OpenAI-compatible chat completions, history only (openai_chat.py)
cli                a local command, prompt on stdin, reply on stdout, history only (cli.py)
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from ..config import (
    AnthropicProviderConfig,
    CliProviderConfig,
    EchoProviderConfig,
    GeminiProviderConfig,
    OpenAIChatProviderConfig,
    OpenAIResponsesProviderConfig,
    ProviderConfig,
)
from .anthropic import AnthropicProvider
from .base import Capabilities, ModelRequest, Provider, ProviderFailure, VisibleMessage
from .cli import CliProvider
from .echo import EchoProvider
from .gemini import GeminiProvider
from .openai_chat import OpenAIChatProvider
from .openai_responses import OpenAIResponsesProvider

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


def build_provider(config: ProviderConfig, where: str = "provider", env: Mapping[str, str] = os.environ) -> Provider:
    """The adapter instance for one configured provider (dispatches on ``kind``).

    ``where`` is the config path named in errors (a missing API key variable
    is a ``ConfigError`` at startup, never a failure at the first run).
    """
    if isinstance(config, EchoProviderConfig):
        return EchoProvider.from_config(config)
    if isinstance(config, OpenAIResponsesProviderConfig):
        return OpenAIResponsesProvider.from_config(config, where, env)
    if isinstance(config, AnthropicProviderConfig):
        return AnthropicProvider.from_config(config, where, env)
    if isinstance(config, GeminiProviderConfig):
        return GeminiProvider.from_config(config, where, env)
    if isinstance(config, OpenAIChatProviderConfig):
        return OpenAIChatProvider.from_config(config, where, env)
    assert isinstance(config, CliProviderConfig)
    return CliProvider.from_config(config)
