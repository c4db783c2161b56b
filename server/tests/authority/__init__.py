"""The providers' own published types as the authority over what the adapters send and the fakes answer.

The pinned official SDKs (``requirements-sdks.txt``; versions and licences in
``README.md`` beside this file) carry each provider's request and response
definitions. Here they are used strictly, which the SDKs themselves never do:

- requests: the SDK's request ``TypedDict`` with ``extra="forbid"`` (OpenAI,
  Anthropic), or the SDK's wire models, which already forbid unknown keys and
  read the camelCase wire names (Gemini);
- responses and stream events: validated against the SDK's models, then walked
  for keys the model does not declare (the OpenAI and Anthropic models accept
  unknown keys silently, so ``model_validate`` alone would prove nothing).

Every check returns ``Discrepancy`` values naming the JSON path in the checked
body; an empty list means the body is valid. Validators are built once per
process (``functools.cache``): the OpenAI Responses request type alone takes
seconds to compile.
"""

from __future__ import annotations

import collections.abc
import functools
import re
import types
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import typing_extensions
from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

Kind = str  # "request" | "response" | "event"


@dataclass(frozen=True)
class Discrepancy:
    path: str
    problem: str

    def __str__(self) -> str:
        return f"{self.path or '<root>'}: {self.problem}"


@dataclass(frozen=True)
class Stricter:
    """A documented case where the authority refuses what the live API accepts (and the product relies on)."""

    adapter: str
    kind: Kind
    path: str
    """A regular expression the whole JSON path matches."""
    problem: str
    """A fragment of the problem, e.g. the pydantic error type."""
    evidence: str


# The SDK's ResponseReasoningItemParam and ResponseOutputMessageParam require `id` (the output message also
# `status`): the shape of items the API stored. With `store: false` nothing is stored and an item replayed
# with its id is refused ("Item with id 'rs_...' not found. Items are not persisted when `store` is set to
# false."); the reasoning guide's stateless example sends reasoning items back by their
# `encrypted_content`. The adapter drops ids on replay (providers/openai_responses.py, ``_replayed``), so
# the check gives each replayed item a stand-in id before validating: everything else about it must hold.
DROPPED_ID = "dropped-under-store-false"


def _with_stand_in_ids(body: Any) -> Any:
    if not isinstance(body, dict) or body.get("store") is not False or not isinstance(body.get("input"), list):
        return body
    items = []
    for item in body["input"]:
        replayed = (
            isinstance(item, dict)
            and "id" not in item
            and (item.get("type") == "reasoning" or (item.get("role") == "assistant" and "status" in item))
        )
        items.append({"id": DROPPED_ID, **item} if replayed else item)
    return {**body, "input": items}


STRICTER_THAN_API: tuple[Stricter, ...] = (
    Stricter(
        "openai-responses",
        "response",
        r"store",
        "not a key",
        "The API's Response object carries `store` (OpenAI's OpenAPI document, Response -> ResponseProperties; "
        'every example response in the API reference shows `"store": true`), but openai 3.57.0\'s '
        "`Response` model does not declare it.",
    ),
    Stricter(
        "openai-responses",
        "event",
        r"response\.store",
        "not a key",
        "As for the response: `response.created`, `response.in_progress` and `response.completed` carry the "
        "whole Response object, `store` included.",
    ),
    Stricter(
        "anthropic",
        "request",
        r"temperature",
        "[extra_forbidden]",
        "anthropic 1.0.0 removed `temperature`, `top_p` and `top_k` from the SDK's request types (its "
        "MIGRATION.md, 'Removed deprecated request parameters': pass them in `extra_body`); the Messages API "
        "still accepts `temperature` on the models that support sampling and refuses it on the newest "
        "(Opus 4.7 and later answer 400). The adapter sends it only when the instance sets `temperature`.",
    ),
)


# Keys the SDK models accept that the Gemini Developer API (``generativelanguage`` v1beta) never sends:
# google-genai shares its types with Vertex AI, whose responses add these. The googleapis
# ``google/ai/generativelanguage/v1beta/generative_service.proto`` ``GenerateContentResponse`` has none.
GEMINI_VERTEX_ONLY_RESPONSE_KEYS = ("createTime", "sdkHttpResponse", "automaticFunctionCallingHistory")


def _listified(tp: Any, memo: dict[Any, Any]) -> Any:
    """``tp`` with every ``Iterable[X]`` made ``list[X]``, through unions, annotations and nested TypedDicts.

    The SDKs type ``messages`` and other arrays as ``Iterable``, which pydantic validates lazily, that is
    never: without this an unknown key in a message would pass unseen.
    """
    if typing_extensions.is_typeddict(tp):
        if tp not in memo:
            memo[tp] = tp  # a recursive reference keeps the original (not listified) type
            hints = typing_extensions.get_type_hints(tp, include_extras=True)
            # totality differs between a TypedDict and its bases: say Required/NotRequired for every key
            fields = {
                name: (typing_extensions.Required if _required(tp, name, hint) else typing_extensions.NotRequired)[
                    _listified(_unwrapped(hint), memo)
                ]
                for name, hint in hints.items()
            }
            memo[tp] = typing_extensions.TypedDict(tp.__name__, fields, total=False)  # type: ignore[operator]
        return memo[tp]
    origin, args = typing_extensions.get_origin(tp), typing_extensions.get_args(tp)
    if origin is None or not args:
        return tp
    if origin is typing_extensions.Annotated:
        return typing_extensions.Annotated[(_listified(args[0], memo), *tp.__metadata__)]
    mapped = tuple(_listified(arg, memo) for arg in args)
    if origin in (collections.abc.Iterable, collections.abc.Sequence):
        return list[mapped[0]]  # type: ignore[valid-type]
    if origin in (typing.Union, types.UnionType):
        return typing.Union[mapped]  # noqa: UP007 (a tuple of members: there is no X | Y spelling)
    if origin in (typing_extensions.Required, typing_extensions.NotRequired, typing_extensions.ReadOnly):
        return origin[mapped[0]]
    if origin in (list, dict, tuple, set):
        return origin[mapped]
    return tp


def _required(tp: Any, name: str, hint: Any) -> bool:
    # The SDKs' modules use ``from __future__ import annotations``, so ``Required[...]`` is only a string
    # when the class is made and ``__required_keys__`` misses it: the evaluated hint is what says it.
    origin = typing_extensions.get_origin(hint)
    if origin is typing_extensions.Required:
        return True
    return origin is not typing_extensions.NotRequired and name in tp.__required_keys__


def _unwrapped(hint: Any) -> Any:
    while typing_extensions.get_origin(hint) in (typing_extensions.Required, typing_extensions.NotRequired):
        hint = typing_extensions.get_args(hint)[0]
    return hint


def _strict_typed_dict(typed_dict: Any) -> Callable[[Any], list[Discrepancy]]:
    typed_dict = _listified(typed_dict, {})
    # pydantic refuses ``config`` on a TypedDict itself, but applies it to the TypedDicts nested inside a
    # list: ``extra="forbid"`` then reaches every level, which is what makes unknown keys errors.
    adapter = TypeAdapter(list[typed_dict], config=ConfigDict(extra="forbid", arbitrary_types_allowed=True))

    def check(body: Any) -> list[Discrepancy]:
        try:
            adapter.validate_python([body])
        except ValidationError as error:
            return _best_errors(error, body, strip_first=True)
        return []

    return check


def _strict_model(model: Any) -> Callable[[Any], list[Discrepancy]]:
    """A response model: validate, then report every undeclared key (the SDKs keep them as extras)."""
    adapter = model if isinstance(model, TypeAdapter) else TypeAdapter(model)

    def check(body: Any) -> list[Discrepancy]:
        try:
            parsed = adapter.validate_python(body)
        except ValidationError as error:
            return _best_errors(error, body, strip_first=False)
        return [Discrepancy(path, "not a key the authority declares") for path in _extras(parsed, "")]

    return check


def _extras(value: Any, path: str) -> Iterator[str]:
    if isinstance(value, BaseModel):
        for key in value.__pydantic_extra__ or {}:
            yield _join(path, key)
        for name, field in type(value).model_fields.items():
            yield from _extras(getattr(value, name), _join(path, field.alias or name))
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from _extras(item, f"{path}[{index}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _extras(item, _join(path, str(key)))


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _best_errors(error: ValidationError, body: Any, *, strip_first: bool) -> list[Discrepancy]:
    """The errors of the union branches that match the body's own discriminators.

    pydantic reports every member of a union. A branch whose ``type`` (or ``role``) literal differs
    from the body's is not the body's type, and a branch that wanted a string or a list where the
    body has an object is a different shape: both are dropped when another branch remains.
    """
    branches: dict[tuple[str, ...], list[tuple[str, Any]]] = {}
    for e in error.errors():
        loc = e["loc"][1:] if strip_first else e["loc"]
        path, labels = _data_path(loc, body)
        branches.setdefault(labels, []).append((path, e))
    kept = {k: v for k, v in branches.items() if not any(_mismatch(path, e) for path, e in v)} or branches
    # Branches of one union (the same site: the same choices above it and the same place in the body)
    # compete, and the one with the fewest errors is the body's type; ties are all reported.
    sites: dict[tuple[str, ...], list[list[tuple[str, Any]]]] = {}
    for labels, found in kept.items():
        site = (*labels[:-1], labels[-1].rsplit(":", 1)[0]) if labels else ()
        sites.setdefault(site, []).append(found)
    seen: dict[str, str] = {}
    for groups in sites.values():
        fewest = min(len(found) for found in groups)
        for found in groups:
            if len(found) == fewest:
                for path, e in found:
                    seen.setdefault(path, f"{e['msg']} [{e['type']}]")
    return [Discrepancy(path, problem) for path, problem in seen.items()]


def _mismatch(path: str, e: Any) -> bool:
    if e["type"] in {"literal_error", "missing"} and path.rsplit(".", 1)[-1] in {"type", "role"}:
        return True
    return e["type"] in {"string_type", "list_type", "dict_type", "model_type", "model_attributes_type", "int_type"}


def _data_path(loc: tuple[Any, ...], body: Any) -> tuple[str, tuple[str, ...]]:
    """The error's location as a path in the body (keys and indexes) and the union branches it went through."""
    path, labels, node = "", [], body
    for part in loc:
        if isinstance(part, int) and isinstance(node, list) and 0 <= part < len(node):
            path, node = f"{path}[{part}]", node[part]
        elif isinstance(part, str) and isinstance(node, dict) and part in node:
            path, node = _join(path, part), node[part]
        elif isinstance(part, str) and isinstance(node, dict) and not _is_branch_label(part):
            path, node = _join(path, part), None  # a missing key: the last step of the path
        else:
            labels.append(f"{path}:{part}")
    return path, tuple(labels)


def _is_branch_label(part: str) -> bool:
    # pydantic names union members by type: ``EasyInputMessageParam``, ``list[union[...]]``, ``str``,
    # ``function-after[...]``, ``literal['x']``; keys in these wire formats are snake_case or camelCase.
    return part[:1].isupper() or "[" in part or part in {"str", "int", "float", "bool", "list", "dict", "none"}


# -- the authorities per wire protocol -------------------------------------------------------------------


@functools.cache
def openai_responses() -> dict[Kind, Callable[[Any], list[Discrepancy]]]:
    from openai.types.responses import Response, ResponseStreamEvent, response_create_params

    streaming = _strict_typed_dict(response_create_params.ResponseCreateParamsStreaming)
    whole = _strict_typed_dict(response_create_params.ResponseCreateParamsNonStreaming)

    def request(body: Any) -> list[Discrepancy]:
        return (streaming if isinstance(body, dict) and body.get("stream") else whole)(_with_stand_in_ids(body))

    return {
        "request": request,
        "response": _strict_model(Response),
        "event": _strict_model(TypeAdapter(ResponseStreamEvent)),
    }


@functools.cache
def openai_chat() -> dict[Kind, Callable[[Any], list[Discrepancy]]]:
    from openai.types.chat import ChatCompletion, ChatCompletionChunk, completion_create_params

    streaming = _strict_typed_dict(completion_create_params.CompletionCreateParamsStreaming)
    whole = _strict_typed_dict(completion_create_params.CompletionCreateParamsNonStreaming)
    return {
        "request": lambda body: (streaming if isinstance(body, dict) and body.get("stream") else whole)(body),
        "response": _strict_model(ChatCompletion),
        "event": _strict_model(ChatCompletionChunk),
    }


@functools.cache
def anthropic() -> dict[Kind, Callable[[Any], list[Discrepancy]]]:
    from anthropic.types import Message, RawMessageStreamEvent, message_create_params

    streaming = _strict_typed_dict(message_create_params.MessageCreateParamsStreaming)
    whole = _strict_typed_dict(message_create_params.MessageCreateParamsNonStreaming)
    events = _strict_model(TypeAdapter(RawMessageStreamEvent))

    def event(body: Any) -> list[Discrepancy]:
        # ``ping`` is documented ("Event types" in the streaming guide) and handled by the SDK's stream
        # reader, but is not a member of ``RawMessageStreamEvent``: it carries nothing but its type.
        if isinstance(body, dict) and body.get("type") == "ping":
            return [Discrepancy(key, "not a key of a ping event") for key in body if key != "type"]
        return events(body)

    return {
        "request": lambda body: (streaming if isinstance(body, dict) and body.get("stream") else whole)(body),
        "response": _strict_model(Message),
        "event": event,
    }


@functools.cache
def gemini() -> dict[Kind, Callable[[Any], list[Discrepancy]]]:
    from google.genai import types as genai
    from pydantic import Field

    class GenerateContentRequest(BaseModel):
        """The REST body of ``models.generateContent``: the proto's fields, each of the SDK's wire type."""

        model_config = ConfigDict(extra="forbid")
        contents: list[genai.Content]
        system_instruction: genai.Content | None = Field(None, alias="systemInstruction")
        tools: list[genai.Tool] | None = None
        tool_config: genai.ToolConfig | None = Field(None, alias="toolConfig")
        safety_settings: list[genai.SafetySetting] | None = Field(None, alias="safetySettings")
        generation_config: genai.GenerationConfig | None = Field(None, alias="generationConfig")
        cached_content: str | None = Field(None, alias="cachedContent")

    request = _strict_model(GenerateContentRequest)
    response = _strict_model(genai.GenerateContentResponse)

    def answer(body: Any) -> list[Discrepancy]:
        vertex = [key for key in GEMINI_VERTEX_ONLY_RESPONSE_KEYS if isinstance(body, dict) and key in body]
        return [Discrepancy(key, "a Vertex AI key the Gemini API does not send") for key in vertex] + response(body)

    return {"request": request, "response": answer, "event": answer}


AUTHORITIES: dict[str, Callable[[], dict[Kind, Callable[[Any], list[Discrepancy]]]]] = {
    "openai-responses": openai_responses,
    "openai-chat": openai_chat,
    "anthropic": anthropic,
    "gemini": gemini,
}


OPENAPI_REQUIRED: dict[tuple[str, Kind], tuple[str, ...]] = {
    ("anthropic", "response"): ("container", "stop_details", "usage.cache_creation", "content[type=text].citations"),
    ("anthropic", "event"): (
        "message.container",
        "message.stop_details",
        "message.usage.cache_creation",
        "content_block[type=text].citations",
    ),
}
"""Members the provider's published OpenAPI document requires (nullable, so ``null`` will do) where the SDK
model makes them optional: Anthropic's ``Message`` (``container``, ``stop_details``), ``Usage``
(``cache_creation``) and ``TextBlock`` (``citations``). A path step ``name[type=x]`` is the list's items of
that ``type``; a path whose parent is absent (an event of another kind) is not checked."""

OPENAPI_NOT_NULL: dict[tuple[str, Kind], tuple[str, ...]] = {
    ("openai-responses", "response"): ("user",),
    ("openai-responses", "event"): ("response.user",),
}
"""Members the OpenAPI document types as non-nullable where the SDK model accepts ``null``: OpenAI's
``Response.user`` is a string, left out when unset."""


def _nodes(body: Any, steps: list[str]) -> Iterator[tuple[Any, str]]:
    """The parents of the path's last step present in ``body``, with that step's key."""
    if len(steps) == 1:
        if isinstance(body, dict):
            yield body, steps[0]
        return
    step, _, kind = steps[0].partition("[type=")
    child = body.get(step) if isinstance(body, dict) else None
    for item in (child if isinstance(child, list) else [child]) if kind else [child]:
        if kind and not (isinstance(item, dict) and item.get("type") == kind.rstrip("]")):
            continue
        yield from _nodes(item, steps[1:])


def _openapi_members(adapter: str, kind: Kind, body: Any) -> list[Discrepancy]:
    found = []
    for path in OPENAPI_REQUIRED.get((adapter, kind), ()):
        for parent, key in _nodes(body, path.split(".")):
            if key not in parent:
                found.append(Discrepancy(path, "required by the provider's OpenAPI document"))
    for path in OPENAPI_NOT_NULL.get((adapter, kind), ()):
        for parent, key in _nodes(body, path.split(".")):
            if key in parent and parent[key] is None:
                found.append(Discrepancy(path, "not nullable in the provider's OpenAPI document"))
    return found


def check(adapter: str, kind: Kind, body: Any) -> list[Discrepancy]:
    """Every discrepancy of ``body`` (a ``kind`` of ``adapter``'s wire protocol) beyond the documented list."""
    found = AUTHORITIES[adapter]()[kind](body) + _openapi_members(adapter, kind, body)
    return [d for d in found if not expected(adapter, kind, d)]


def expected(adapter: str, kind: Kind, discrepancy: Discrepancy) -> bool:
    return any(
        rule.adapter == adapter
        and rule.kind == kind
        and re.fullmatch(rule.path, discrepancy.path)
        and rule.problem in discrepancy.problem
        for rule in STRICTER_THAN_API
    )
