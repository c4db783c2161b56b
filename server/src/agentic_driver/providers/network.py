"""The skeleton every network adapter shares; an adapter adds only its wire mapping.

Like pydantic-ai's ``models/``, every network adapter has the same steps:

    from_config        host JSON -> instance: API key, ``Upstream``, retry policy, body options
    turn               a step, retried while it has yielded nothing (``upstream.retrying``)
    _step              map the request, send it (streamed or not), process the answer

and fills in the same hooks, which are its wire mapping:

    _auth_headers      the credentials (and any fixed header) every request carries
    _body_options      body members from the config (output tokens, temperature, extraBody)
    _settings          the adapter's own constructor fields from the config (none by default)
    _classify          the provider's error body -> the failure to raise
    path / _endpoint   where a step is posted
    _map_request       ``ModelRequest`` -> request body, and what processing the answer needs
                       (the items the step adds before the model's output)
    _process_response  a non-streamed answer -> the step's events
    _process_stream    a streamed answer (Server-Sent Events) -> the step's events
    capabilities       what the adapter supports
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import AsyncGenerator, AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from .base import Capabilities, ModelRequest, ProviderFailure, TurnEvent
from .upstream import RetryPolicy, ServerSentEvent, Upstream, read_api_key, retrying

__all__ = ["NetworkAdapter", "NetworkConfig"]


class NetworkConfig(Protocol):
    """What the skeleton reads of a network provider's host JSON (``config._NetworkProvider`` and kin).

    Read-only properties, spelled as host JSON spells them, so that every config class satisfies it.
    """

    @property
    def id(self) -> str: ...
    @property
    def accountId(self) -> str | None: ...
    @property
    def models(self) -> Sequence[str]: ...
    @property
    def apiKeyEnv(self) -> str | None: ...
    @property
    def baseUrl(self) -> str: ...
    @property
    def stream(self) -> bool: ...
    @property
    def timeoutMs(self) -> int: ...
    @property
    def connectTimeoutMs(self) -> int | None: ...
    @property
    def keepAliveMs(self) -> int: ...
    @property
    def maxRetries(self) -> int: ...
    @property
    def retryBaseMs(self) -> int: ...
    @property
    def maxRetryWaitMs(self) -> int: ...


ConfigT = TypeVar("ConfigT", bound=NetworkConfig)
SentT = TypeVar("SentT")
"""What ``_map_request`` hands on to processing the answer (the items the step added, and so on)."""


@dataclass(slots=True)
class NetworkAdapter(ABC, Generic[ConfigT, SentT]):
    id: str
    models: tuple[str, ...]
    account_id: str | None
    upstream: Upstream
    stream: bool = True
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    options: dict[str, Any] = field(default_factory=dict)
    """Body members every request carries (output tokens, temperature, extraBody)."""
    kind: str = ""

    path: ClassVar[str] = ""
    """Where every step is posted, for an adapter whose endpoint does not depend on the request."""

    @classmethod
    def from_config(
        cls, config: ConfigT, where: str, env: Mapping[str, str] = os.environ, *, max_connections: int = 64
    ) -> Self:
        """The instance for one configured provider (a missing API key variable: ``ConfigError`` naming ``where``).

        ``max_connections`` bounds its connection pool: the host's ``limits.maxConcurrentRuns``.
        """
        key = read_api_key(env, config.apiKeyEnv, where)
        connect_ms = config.connectTimeoutMs
        return cls(
            id=config.id,
            models=tuple(config.models),
            account_id=config.accountId,
            upstream=Upstream(
                config.id,
                config.baseUrl,
                cls._auth_headers(config, key),
                cls._classify,
                config.timeoutMs / 1000,
                secrets=(key,) if key else (),
                connect_timeout_s=None if connect_ms is None else connect_ms / 1000,
                max_connections=max_connections,
                keep_alive_s=config.keepAliveMs / 1000,
            ),
            stream=config.stream,
            retry=RetryPolicy(config.maxRetries, config.retryBaseMs / 1000, config.maxRetryWaitMs / 1000),
            options=cls._body_options(config),
            **cls._settings(config),
        )

    @staticmethod
    @abstractmethod
    def _auth_headers(config: ConfigT, key: str | None) -> dict[str, str]:
        """The headers every request carries: the credentials when a key is configured."""

    @staticmethod
    @abstractmethod
    def _body_options(config: ConfigT) -> dict[str, Any]:
        """The body members every request carries (see ``options``)."""

    @staticmethod
    @abstractmethod
    def _classify(status: int, headers: Mapping[str, str], payload: Any) -> ProviderFailure:
        """The provider's error body -> the failure to raise (see ``upstream.Classify``)."""

    @staticmethod
    def _settings(config: ConfigT) -> dict[str, Any]:
        """The adapter's own constructor fields, read from its config."""
        return {}

    @property
    @abstractmethod
    def capabilities(self) -> Capabilities: ...

    async def aclose(self) -> None:
        """Close the instance's pooled connections (``Driver.aclose``)."""
        await self.upstream.aclose()

    def turn(self, request: ModelRequest, *, native: bool) -> AsyncGenerator[TurnEvent, None]:
        if native and not self.capabilities.native_continuation:
            raise ValueError(f"{self.kind} keeps no native state; the driver refuses native sessions on it")
        return retrying(lambda: self._step(request), self.retry, self.id)

    async def _step(self, request: ModelRequest) -> AsyncGenerator[TurnEvent, None]:
        body, sent = self._map_request(request)
        path, params = self._endpoint(request)
        with self.upstream.reading():
            if self.stream:
                async with self.upstream.stream(path, body, params) as events:
                    async for event in self._process_stream(events, sent):
                        yield event
            else:
                for event in self._process_response(await self.upstream.post_json(path, body, params), sent):
                    yield event

    def _endpoint(self, request: ModelRequest) -> tuple[str, dict[str, str] | None]:
        """The path this step is posted to, and its query parameters."""
        return self.path, None

    @abstractmethod
    def _map_request(self, request: ModelRequest) -> tuple[dict[str, Any], SentT]: ...

    @abstractmethod
    def _process_response(self, data: Any, sent: SentT) -> list[TurnEvent]: ...

    @abstractmethod
    def _process_stream(self, events: AsyncIterator[ServerSentEvent], sent: SentT) -> AsyncIterator[TurnEvent]: ...
