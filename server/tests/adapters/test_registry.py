"""One registry of provider kinds (``providers.ADAPTERS``), and each network adapter as its module's data."""

from __future__ import annotations

import inspect
from importlib import import_module
from typing import Any

import pytest

from agentic_driver import telemetry
from agentic_driver.config import PROVIDER_KINDS, parse_config
from agentic_driver.providers import ADAPTERS, build_provider
from agentic_driver.providers.network import NetworkAdapter, WireMapping

TELEMETRY_NAMES = {
    "echo": "agentic_driver.echo",
    "openai-responses": "openai",
    "anthropic": "anthropic",
    "gemini": "gcp.gemini",
    "openai-chat": "openai",
    "cli": "agentic_driver.cli",
}
"""``gen_ai.provider.name`` per kind: the GenAI conventions' well-known value where there is one."""
NETWORK_KINDS = ("openai-responses", "anthropic", "gemini", "openai-chat")
EXTRA: dict[str, dict[str, Any]] = {"echo": {"accountId": "local"}, "cli": {"command": ["cat"]}}


def test_every_configurable_kind_has_one_adapter_entry() -> None:
    assert tuple(ADAPTERS) == PROVIDER_KINDS


@pytest.mark.parametrize("kind", PROVIDER_KINDS)
def test_every_kind_builds_an_instance_of_its_exported_class_named_on_traces(kind: str) -> None:
    config = parse_config({"providers": [{"id": "p", "kind": kind, "models": ["m"], **EXTRA.get(kind, {})}]})

    provider = build_provider(config.providers[0], "providers[0]", env={})

    assert provider.kind == kind
    assert type(provider).__name__ == ADAPTERS[kind].provider
    assert telemetry.provider_name(provider) == TELEMETRY_NAMES[kind]


@pytest.mark.parametrize("kind", NETWORK_KINDS)
def test_a_network_adapter_is_its_modules_wire_and_its_class_only_names_it(kind: str) -> None:
    entry = ADAPTERS[kind]
    module = import_module(entry.module, "agentic_driver.providers")
    wire = getattr(module, entry.built_by)

    assert isinstance(wire, WireMapping) and wire.kind == kind
    assert wire.adapter is getattr(module, entry.provider) and issubclass(wire.adapter, NetworkAdapter)
    own = {name for name, value in vars(wire.adapter).items() if inspect.isfunction(value)}
    assert own <= {"__init__", "__repr__", "__eq__", "__replace__"}  # a dataclass's own, nothing else


def test_a_provider_without_a_telemetry_name_is_named_after_its_class() -> None:
    class ScriptedProvider:
        pass

    assert telemetry.provider_name(ScriptedProvider()) == "agentic_driver.scriptedprovider"
