"""A run's arguments, declared once (``_arguments.RunArguments``), are checked and sent alike by every run call."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from agentic_driver_sdk import InternalServerError, _plans, attachment

from .conftest import d, mock_client

RUN = {"provider": "echo", "model": "echo-1", "input": "Hi"}
CALLS = ["run", "runs.create", "runs.stream"]


def call(client: Any, name: str, **arguments: Any) -> Any:
    target = client
    for part in name.split("."):
        target = getattr(target, part)
    return target(**arguments)


def refusing(requests: list[httpx.Request]) -> Any:
    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return httpx.Response(500)

    return handler


@pytest.mark.parametrize("name", CALLS)
@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({**RUN, "bogus": 1}, "unexpected keyword arguments: bogus"),
        ({"provider": "echo", "model": "echo-1"}, "missing required keyword arguments: input"),
    ],
)
async def test_an_unknown_or_missing_argument_is_a_type_error_before_any_request(
    kind: str, name: str, arguments: dict[str, Any], message: str
) -> None:
    requests: list[httpx.Request] = []
    client = mock_client(kind, refusing(requests))
    with pytest.raises(TypeError, match=message):
        await d(call(client, name, **arguments))
    assert requests == []


@pytest.mark.parametrize("name", CALLS)
async def test_every_run_call_sends_the_same_body_for_the_same_arguments(kind: str, name: str) -> None:
    requests: list[httpx.Request] = []
    client = mock_client(kind, refusing(requests), max_retries=0)
    arguments = {
        **RUN,
        "instructions": "Be brief.",
        "history": [{"role": "user", "content": "Before"}],
        "tools": [{"name": "f", "parameters": {"type": "object"}}],
        "idle_timeout_ms": 5000,
        "action_timeout_ms": 6000,
        "on_disconnect": "continue",
        "idempotency_key": "key-1",
        "retrieval": None,  # None is not sent
    }
    with pytest.raises(InternalServerError):  # the canned 500: only the request matters here
        outcome = await d(call(client, name, **arguments))
        await d(outcome.final_run())  # a stream sends its request when read
    (request,) = requests
    assert request.headers["idempotency-key"] == "key-1"
    assert json.loads(request.content) == {
        **RUN,
        "instructions": "Be brief.",
        "history": [{"role": "user", "content": "Before"}],
        "tools": [{"name": "f", "parameters": {"type": "object"}}],
        "idleTimeoutMs": 5000,
        "actionTimeoutMs": 6000,
        "onDisconnect": "continue",
    }


@pytest.mark.parametrize("name", CALLS)
async def test_attachments_are_typed_models_or_wire_dicts_sent_as_the_wire_form(kind: str, name: str) -> None:
    requests: list[httpx.Request] = []
    client = mock_client(kind, refusing(requests), max_retries=0)
    wire = {"name": "b.png", "mediaType": "image/png", "data": "iVBORw0K"}
    files = [attachment("a.txt", "text/plain", "héllo"), attachment("raw.bin", "application/pdf", b"%PDF-1.7"), wire]
    with pytest.raises(InternalServerError):
        outcome = await d(call(client, name, **RUN, attachments=files))
        await d(outcome.final_run())
    (request,) = requests
    assert json.loads(request.content)["attachments"] == [
        {"name": "a.txt", "mediaType": "text/plain", "data": base64.b64encode("héllo".encode()).decode()},
        {"name": "raw.bin", "mediaType": "application/pdf", "data": base64.b64encode(b"%PDF-1.7").decode()},
        wire,
    ]


def test_each_optional_run_argument_is_sent_as_a_run_request_property_of_the_spec() -> None:
    """A run's fields are declared once (``RunArguments``); the body's names are derived from them."""
    spec = yaml.safe_load((Path(__file__).resolve().parents[3] / "openapi.yaml").read_text("utf-8"))
    properties = set(spec["components"]["schemas"]["RunRequest"]["properties"])
    fields = _plans._RUN_FIELDS

    assert {wire for wire, _ in fields.values()} <= properties, sorted({w for w, _ in fields.values()} - properties)
    assert fields["idle_timeout_ms"][0] == "idleTimeoutMs" and "idempotency_key" not in fields
    sent = properties - {"provider", "model", "input", "session"}
    assert sent == {wire for wire, _ in fields.values()}, sorted(sent ^ {wire for wire, _ in fields.values()})
