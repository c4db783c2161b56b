"""The one network adapter: ``NetworkAdapter`` runs any provider's ``WireMapping`` over ``upstream``.

Like pydantic-ai's ``models/``, every network provider takes the same steps, and this module takes them
for all of them:

    from_config        host JSON -> instance: API key, ``Upstream``, retry policy, body options
    turn               a step, retried while it has yielded nothing (``upstream.retrying``)
    _step              map the request, send it (streamed or not), process the answer

Each provider's module declares, once and as data, what is its own (its ``WIRE``):

    kind, telemetry_name  the config's ``kind``; ``gen_ai.provider.name`` on traces
    auth_headers       the credentials (and any fixed header) every request carries
    body_options       body members from the config (output tokens, temperature, extraBody)
    capabilities       what an instance of that config supports
    settings           the adapter class's own constructor fields from the config (none by default)
    classify           the provider's error body -> the failure to raise
    path / endpoint    where a step is posted
    map_request        ``ModelRequest`` -> request body, and what processing the answer needs
                       (the items the step adds before the model's output)
    process_response   a non-streamed answer -> the step's events
    process_stream     a streamed answer (Server-Sent Events) -> the step's events
    filter_native      the provider's ``nativeHistory`` filters (none by default)
    adapter            the class its instances are (``NetworkAdapter``, or a subclass that names them)
"""

from __future__ import annotations

import os
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from .base import Capabilities, ModelRequest, TurnEvent
from .upstream import Classify, RetryPolicy, ServerSentEvent, Upstream, read_api_key, retrying

__all__ = ["NetworkAdapter", "NetworkConfig", "WireMapping"]


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
"""What ``map_request`` hands on to processing the answer (the items the step added, and so on)."""
Endpoint = tuple[str, dict[str, str] | None]
"""A step's path and its query parameters."""


@dataclass(slots=True)
class NetworkAdapter(Generic[ConfigT, SentT]):
    """One configured network provider: its wire mapping, and the plumbing its config gave it."""

    wire: WireMapping[ConfigT, SentT]
    id: str
    models: tuple[str, ...]
    account_id: str | None
    upstream: Upstream
    capabilities: Capabilities
    """The wire's ``capabilities`` for this instance's config (read on every turn: made once)."""
    kind: str
    telemetry_name: str
    stream: bool = True
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    options: dict[str, Any] = field(default_factory=dict)
    """Body members every request carries (output tokens, temperature, extraBody)."""

    async def aclose(self) -> None:
        """Close the instance's pooled connections (``Driver.aclose``)."""
        await self.upstream.aclose()

    def turn(self, request: ModelRequest, *, native: bool) -> AsyncGenerator[TurnEvent, None]:
        if native and not self.capabilities.native_continuation:
            raise ValueError(f"{self.kind} keeps no native state; the driver refuses native sessions on it")
        return retrying(lambda: self._step(request), self.retry, self.id)

    async def _step(self, request: ModelRequest) -> AsyncGenerator[TurnEvent, None]:
        wire = self.wire
        body, sent = wire.map_request(request, self.options, self.stream)
        path, params = (wire.path, None) if wire.endpoint is None else wire.endpoint(self, request)
        with self.upstream.reading():
            if self.stream:
                async with self.upstream.stream(path, body, params) as events:
                    async for event in wire.process_stream(events, sent):
                        yield event
            else:
                for event in wire.process_response(await self.upstream.post_json(path, body, params), sent):
                    yield event

    def filter_native(self, items: Sequence[str], mode: str, max_chars: int) -> tuple[str, ...]:
        """The turn's items as a ``mode`` native session keeps them (``base.NativeFiltering``).

        Only a wire with a ``filter_native`` advertises filters beyond ``full``, so the driver asks no other.
        """
        if self.wire.filter_native is None:
            if mode != "full":
                raise ValueError(f"{self.kind} has no {mode} native history filter")
            return tuple(items)
        return self.wire.filter_native(items, mode, max_chars)


@dataclass(frozen=True, slots=True, kw_only=True)
class WireMapping(Generic[ConfigT, SentT]):
    """Everything one provider's wire format is, declared once in its module (``WIRE``) and run by
    ``NetworkAdapter``: functions of the module, no state."""

    kind: str
    """The host JSON ``kind`` (``providers.ADAPTERS`` is keyed by it)."""
    telemetry_name: str
    """``gen_ai.provider.name``: the well-known value where the GenAI conventions have one."""
    auth_headers: Callable[[ConfigT, str | None], dict[str, str]]
    """The headers every request carries (config, API key): the credentials when a key is configured."""
    body_options: Callable[[ConfigT], dict[str, Any]]
    """The body members every request carries (``NetworkAdapter.options``)."""
    capabilities: Callable[[ConfigT], Capabilities]
    classify: Classify
    """The provider's error body -> the failure to raise (see ``upstream.Classify``)."""
    map_request: Callable[[ModelRequest, Mapping[str, Any], bool], tuple[dict[str, Any], SentT]]
    """(request, body options, stream) -> the body, and what processing the answer needs."""
    process_response: Callable[[Any, SentT], list[TurnEvent]]
    process_stream: Callable[[AsyncIterator[ServerSentEvent], SentT], AsyncIterator[TurnEvent]]
    path: str = ""
    """Where every step is posted, for a wire whose endpoint does not depend on the request."""
    endpoint: Callable[[Any, ModelRequest], Endpoint] | None = None
    """(the instance, request) -> where this step is posted, for a wire whose endpoint does (Gemini's
    names the model); the instance is of ``adapter``, whose own fields ``settings`` filled."""
    settings: Callable[[ConfigT], dict[str, Any]] | None = None
    """The ``adapter`` class's own constructor fields, read from the config."""
    filter_native: Callable[[Sequence[str], str, int], tuple[str, ...]] | None = None
    """(items, mode, max chars) -> what a native session of that ``nativeHistory`` keeps
    (``history_filters``); with it, ``capabilities`` lists the filters."""
    adapter: type[NetworkAdapter[ConfigT, SentT]] = NetworkAdapter
    """The class an instance is: ``NetworkAdapter`` itself, or a subclass that only names it."""

    def from_config(
        self, config: ConfigT, where: str, env: Mapping[str, str] = os.environ, *, max_connections: int = 64
    ) -> NetworkAdapter[ConfigT, SentT]:
        """The instance for one configured provider (a missing API key variable: ``ConfigError`` naming ``where``).

        ``max_connections`` bounds its connection pool: the host's ``limits.maxConcurrentRuns``.
        """
        key = read_api_key(env, config.apiKeyEnv, where)
        connect_ms = config.connectTimeoutMs
        return self.adapter(
            wire=self,
            id=config.id,
            models=tuple(config.models),
            account_id=config.accountId,
            upstream=Upstream(
                config.id,
                config.baseUrl,
                self.auth_headers(config, key),
                self.classify,
                config.timeoutMs / 1000,
                secrets=(key,) if key else (),
                connect_timeout_s=None if connect_ms is None else connect_ms / 1000,
                max_connections=max_connections,
                keep_alive_s=config.keepAliveMs / 1000,
            ),
            capabilities=self.capabilities(config),
            kind=self.kind,
            telemetry_name=self.telemetry_name,
            stream=config.stream,
            retry=RetryPolicy(config.maxRetries, config.retryBaseMs / 1000, config.maxRetryWaitMs / 1000),
            options=self.body_options(config),
            **(self.settings(config) if self.settings is not None else {}),
        )
