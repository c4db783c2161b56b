"""One scenario request through the generated client, for the scenario player (``scenarios.py``).

``call`` finds the generated module of an operationId (``agentic_driver_client.api.<tag>.<operation_id>``),
builds the body model with ``from_dict`` from the step's wire JSON, calls ``sync_detailed`` (an event stream is
read through the client's httpx client and parsed by the hand-written layer, agentic_driver_sdk) and returns an
``Exchange``: the raw response, what the client parsed (``ClientParseError`` when it could not) and whether the
runner closed the stream early on purpose. ``ScenarioFailure`` is the error every part of the player raises.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import pkgutil
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import httpx

from . import checks
from .spec import operations

if TYPE_CHECKING:
    from agentic_driver_client import AuthenticatedClient, Client

REQUEST_TIMEOUT_S = 20.0
INVALID_TOKEN = "contract-token-no-host-knows-0"


class ScenarioFailure(AssertionError):
    """A scenario does not hold. Named after ``scenarios.py``, which exports it: pytest reports it as
    ``agentic_driver_conformance.scenarios.ScenarioFailure: ...``, the prefix metrics.py strips from messages."""

    __module__ = "agentic_driver_conformance.scenarios"


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


@functools.cache
def client_module(operation_id: str) -> Any:
    """The generated module of an operation, found by name under agentic_driver_client.api."""
    api = importlib.import_module("agentic_driver_client.api")
    wanted = _snake(operation_id)
    for info in pkgutil.walk_packages(api.__path__, prefix="agentic_driver_client.api."):
        if info.name.rsplit(".", 1)[-1] == wanted:
            return importlib.import_module(info.name)
    raise ScenarioFailure(f"the generated client has no module for operationId {operation_id!r}")


def _normalise(name: str) -> str:
    """A spec parameter name as the generated client spells it, minus separators (Idempotency-Key ~ idempotency_key)."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


@dataclass(frozen=True)
class ClientParseError:
    """The generated client raised while reading an answer."""

    error: Exception


@dataclass
class Exchange:
    """One request through the generated client and everything it produced."""

    operation_id: str
    path: dict[str, Any]
    body: Any
    response: httpx.Response
    parsed: Any
    cut_short: bool = False
    """The runner closed the stream early on purpose (transport.disconnectAfterEvents)."""

    @property
    def is_stream(self) -> bool:
        content_type: str = self.response.headers.get("content-type", "")
        return content_type.split(";")[0].strip() == "text/event-stream"

    @property
    def json(self) -> Any:
        """The body as JSON; an event stream reads as the array of its events' data."""
        try:
            if self.is_stream:
                return [json.loads(m["data"]) for m in checks.parse_event_stream(self.response.content)]
            return json.loads(self.response.content or b"null")
        except ValueError:
            return None

    def describe(self) -> str:
        request = self.response.request
        content = request.content.decode("utf-8", "replace") if request.content else ""
        return (
            f"{request.method} {request.url} {content[:400]}\n"
            f"  -> {self.response.status_code} {self.response.text[:800]}"
        )


def _client(
    base_url: str,
    auth: str,
    tokens: dict[str, str],
    transport: dict[str, Any],
    captured: list[httpx.Response] | None,
    request_hooks: Sequence[Callable[[httpx.Request], None]] = (),
) -> Client | AuthenticatedClient:
    """A generated client; ``captured`` collects every raw response (read whole: not for streams);
    ``request_hooks`` see each request before it is sent (a cluster test adds the routing header with one)."""
    from agentic_driver_client import AuthenticatedClient, Client

    def on_request(request: httpx.Request) -> None:
        if "contentType" in transport:
            request.headers["Content-Type"] = transport["contentType"]

    def on_response(response: httpx.Response) -> None:
        response.read()
        assert captured is not None
        captured.append(response)

    hooks: dict[str, list[Callable[..., None]]] = {"request": [on_request, *request_hooks]}
    if captured is not None:
        hooks["response"] = [on_response]
    httpx_args: dict[str, Any] = {"trust_env": False, "event_hooks": hooks}
    timeout = httpx.Timeout(REQUEST_TIMEOUT_S)
    if auth == "none":
        return Client(base_url=base_url, timeout=timeout, httpx_args=httpx_args)
    if auth != "invalid" and auth not in tokens:
        raise ScenarioFailure(f"no secret for token {auth!r}")
    token = INVALID_TOKEN if auth == "invalid" else tokens[auth]
    return AuthenticatedClient(token=token, base_url=base_url, timeout=timeout, httpx_args=httpx_args)


def streams(operation_id: str) -> bool:
    """Whether the operation answers 200 with an event stream."""
    return "text/event-stream" in operations()[operation_id].response_media_types.get("200", ())


def _read_stream(response: httpx.Response, disconnect_after: int | None) -> tuple[bytes, bool]:
    """The stream's bytes; with ``disconnect_after``, only its first complete messages, then the connection closes."""
    content = b""
    for chunk in response.iter_bytes():
        searched = max(len(content) - 1, 0)
        content += chunk
        if disconnect_after is not None and response.status_code == 200:
            # One read may bring many events: keep exactly the first ``disconnect_after`` (comments aside).
            while (boundary := content.find(b"\n\n", searched)) != -1:
                searched = boundary + 2
                if len(checks.parse_event_stream(content[:searched])) >= disconnect_after:
                    return content[:searched], True
    return content, False


def call(
    base_url: str,
    operation_id: str,
    *,
    auth: str,
    tokens: dict[str, str],
    path: dict[str, Any],
    headers: dict[str, Any],
    body: Any,
    transport: dict[str, Any],
    ready: Callable[[], object] | None = None,
    request_hooks: Sequence[Callable[[httpx.Request], None]] = (),
) -> Exchange:
    """One request through the generated client. ``ready`` runs once the connection is open, just before sending.

    The generated client builds every request. Event streams are read through its httpx client (the generator
    does not stream) and their events parsed by the hand-written layer beside it (agentic_driver_sdk).
    """
    module = client_module(operation_id)
    signature = inspect.signature(module.sync_detailed)
    kwargs: dict[str, Any] = {}
    for name, value in {**path, **headers}.items():
        matches = [p for p in signature.parameters if _normalise(p) == _normalise(name)]
        if not matches:
            raise ScenarioFailure(f"{operation_id} has no parameter {name!r} in the generated client")
        kwargs[matches[0]] = value
    if body is not None:
        model = signature.parameters["body"].annotation
        kwargs["body"] = model.from_dict(body)
    captured: list[httpx.Response] = []
    streaming = streams(operation_id)
    with _client(base_url, auth, tokens, transport, None if streaming else captured, request_hooks) as client:
        if ready is not None:
            client.get_httpx_client().get("/healthz")  # open the connection before the starting signal
            ready()
        if streaming:
            return _call_streaming(module, client, operation_id, path, body, kwargs, transport)
        try:
            parsed = module.sync_detailed(client=client, **kwargs).parsed
        except Exception as error:  # the client could not parse the answer: judged after validation
            if not captured:
                raise
            parsed = ClientParseError(error)
    assert captured, "the client sent no request"
    return Exchange(operation_id, path, body, captured[-1], parsed)


def _call_streaming(
    module: Any,
    client: Any,
    operation_id: str,
    path: dict[str, Any],
    body: Any,
    kwargs: dict[str, Any],
    transport: dict[str, Any],
) -> Exchange:
    from agentic_driver_sdk import parse_event
    from httpx_sse import ServerSentEvent

    request = module._get_kwargs(**kwargs)
    request["headers"] = {**request.get("headers", {}), "Accept": "text/event-stream"}
    with client.get_httpx_client().stream(**request) as streamed:
        content, cut_short = _read_stream(streamed, transport.get("disconnectAfterEvents"))
        response = httpx.Response(
            streamed.status_code, headers=streamed.headers, content=content, request=streamed.request
        )
    response.elapsed = streamed.elapsed
    parsed: Any
    try:
        if response.status_code == 200:
            parsed = [
                parse_event(ServerSentEvent(event=m.get("event", ""), data=m["data"], id=m.get("id", "")))
                for m in checks.parse_event_stream(content)
            ]
        else:
            parsed = module._parse_response(client=client, response=response)
    except Exception as error:
        parsed = ClientParseError(error)
    return Exchange(operation_id, path, body, response, parsed, cut_short=cut_short)
