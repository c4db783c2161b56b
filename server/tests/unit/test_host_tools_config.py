"""Host JSON for the new sections (limits, idempotency, tools) and host tools from import paths.

Every configuration problem is named by its JSON path; a tool handler that
cannot be imported is a ConfigError naming ``tools[i].handler``. ``asyncio:sleep``
serves as an importable async handler (``sleep(delay, result)`` returns ``result``).
"""

from __future__ import annotations

import asyncio
import datetime
from typing import Any

import pytest

from agentic_driver import ConfigError, Driver, ManualClock, parse_config
from agentic_driver.models import RunRequest
from agentic_driver.providers.base import ToolSpec
from agentic_driver.tools import HostTool, import_handler

ECHO = {"id": "echo", "kind": "echo", "accountId": "acct-1"}
NAP = {"name": "nap", "handler": "asyncio:sleep", "approval": "never"}


def test_the_new_sections_take_their_documented_defaults() -> None:
    config = parse_config({"providers": [ECHO]})

    assert config.limits.maxQueuedRuns == 256
    assert config.limits.heartbeatMs == 15_000
    assert config.idempotency.maxKeys == 1_000
    assert config.idempotency.ttlMs == 24 * 60 * 60 * 1000
    assert config.tools == []


def test_a_tool_takes_a_name_an_import_path_a_schema_and_an_approval_policy() -> None:
    config = parse_config(
        {
            "providers": [ECHO],
            "limits": {"maxQueuedRuns": 0, "heartbeatMs": 10},
            "idempotency": {"maxKeys": 1, "ttlMs": 1},
            "tools": [
                {"name": "deploy", "handler": "my_app.tools:deploy"},
                {
                    "name": "nap-2",
                    "handler": "asyncio:sleep",
                    "description": "Sleep a while.",
                    "parameters": {"type": "object", "properties": {"delay": {"type": "number"}}},
                    "approval": "never",
                },
            ],
        }
    )

    assert (config.limits.maxQueuedRuns, config.limits.heartbeatMs) == (0, 10)
    assert (config.idempotency.maxKeys, config.idempotency.ttlMs) == (1, 1)
    deploy, nap = config.tools
    assert (deploy.name, deploy.handler, deploy.description, deploy.parameters, deploy.approval) == (
        "deploy",
        "my_app.tools:deploy",
        "",
        {"type": "object"},
        "required",
    )
    assert nap.approval == "never"
    assert nap.parameters["properties"] == {"delay": {"type": "number"}}


@pytest.mark.parametrize(
    ("data", "path", "fragment"),
    [
        pytest.param(
            {"limits": {"maxQueuedRuns": -1}}, "limits.maxQueuedRuns", "greater than or equal to 0", id="queue"
        ),
        pytest.param({"limits": {"maxQueuedRuns": "5"}}, "limits.maxQueuedRuns", "valid integer", id="queue-string"),
        pytest.param({"limits": {"heartbeatMs": 9}}, "limits.heartbeatMs", "greater than or equal to 10", id="beat"),
        pytest.param({"idempotency": {"maxKeys": 0}}, "idempotency.maxKeys", "greater than or equal to 1", id="keys"),
        pytest.param({"idempotency": {"ttlMs": 0}}, "idempotency.ttlMs", "greater than or equal to 1", id="ttl"),
        pytest.param({"idempotency": {"ttl": 5}}, "idempotency.ttl", "Extra inputs", id="idempotency-unknown"),
        pytest.param({"tools": [{"handler": "a:b"}]}, "tools[0].name", "Field required", id="tool-name-missing"),
        pytest.param(
            {"tools": [{"name": "has space", "handler": "a:b"}]}, "tools[0].name", "pattern", id="tool-name-pattern"
        ),
        pytest.param({"tools": [{"name": "t"}]}, "tools[0].handler", "Field required", id="handler-missing"),
        pytest.param(
            {"tools": [NAP, {"name": "t", "handler": "no_colon"}]}, "tools[1].handler", "pattern", id="handler-path"
        ),
        pytest.param(
            {"tools": [{"name": "t", "handler": "mod:fn()"}]}, "tools[0].handler", "pattern", id="handler-call"
        ),
        pytest.param(
            {"tools": [{"name": "t", "handler": "a:b", "approval": "maybe"}]},
            "tools[0].approval",
            "'required' or 'never'",
            id="approval",
        ),
        pytest.param(
            {"tools": [{"name": "t", "handler": "a:b", "colour": "red"}]}, "tools[0].colour", "Extra inputs", id="extra"
        ),
        pytest.param(
            {"tools": [NAP, {"name": "nap", "handler": "asyncio:sleep"}]},
            "tools[1].name",
            "duplicate tool name 'nap' (first at tools[0])",
            id="duplicate-tool",
        ),
    ],
)
def test_a_problem_in_the_new_sections_is_a_config_error_led_by_its_path(
    data: dict[str, Any], path: str, fragment: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config({"providers": [ECHO], **data})

    assert len(caught.value.problems) == 1, caught.value.problems
    problem = caught.value.problems[0]
    assert problem.startswith(f"{path}: "), problem
    assert fragment in problem


def test_every_repeat_of_a_tool_name_is_reported_at_its_own_path() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config({"providers": [ECHO], "tools": [NAP, {**NAP}, {"name": "other", "handler": "a:b"}, {**NAP}]})

    assert caught.value.problems == [
        "tools[1].name: duplicate tool name 'nap' (first at tools[0])",
        "tools[3].name: duplicate tool name 'nap' (first at tools[0])",
    ]


# -- Driver.from_config and import paths -------------------------------------------------------


async def test_a_driver_from_config_runs_a_tool_imported_by_its_path() -> None:
    driver = Driver.from_config(parse_config({"providers": [ECHO], "tools": [NAP]}), clock=ManualClock())

    done = await driver.run(
        RunRequest(provider="echo", model="echo-1", input='!tool nap {"delay": 0, "result": "rested"}\ntired')
    )

    assert done.output.text == "echo: tired | nap -> rested"


async def test_a_driver_from_config_takes_the_wait_line_and_idempotency_limits() -> None:
    clock = ManualClock()
    config = parse_config(
        {
            "providers": [ECHO],
            "limits": {"maxConcurrentRuns": 2, "maxQueuedRuns": 3},
            "idempotency": {"maxKeys": 5, "ttlMs": 1_000},
        }
    )
    driver = Driver.from_config(config, clock=clock)
    request = RunRequest(provider="echo", model="echo-1", input="hi")

    assert (driver.slots.size, driver.slots.max_waiting) == (2, 3)
    first = await driver.run(request, idempotency_key="k")
    assert await driver.run(request, idempotency_key="k") is first
    clock.advance(1_000)
    assert await driver.run(request, idempotency_key="k") is not first


@pytest.mark.parametrize(
    ("handler", "message"),
    [
        pytest.param(
            "no_such_module_for_agentic_tests:run",
            "cannot import 'no_such_module_for_agentic_tests:run': No module named 'no_such_module_for_agentic_tests'",
            id="no-module",
        ),
        pytest.param("asyncio:no_such_function", "cannot import 'asyncio:no_such_function'", id="no-attribute"),
        pytest.param("json:loads", "'json:loads' is not an async function", id="not-async"),
    ],
)
def test_a_tool_whose_handler_cannot_be_used_is_a_config_error_naming_its_handler(handler: str, message: str) -> None:
    config = parse_config({"providers": [ECHO], "tools": [NAP, {"name": "broken", "handler": handler}]})

    with pytest.raises(ConfigError) as caught:
        Driver.from_config(config)

    assert len(caught.value.problems) == 1
    problem = caught.value.problems[0]
    assert problem.startswith("tools[1].handler: "), problem
    assert message in problem


@pytest.mark.parametrize("path", ["no_colon", ":fn", "module:", ""])
def test_import_handler_wants_module_colon_function(path: str) -> None:
    with pytest.raises(ValueError, match="expected 'module:function'"):
        import_handler(path)


def test_import_handler_returns_the_async_function() -> None:
    assert import_handler("asyncio:sleep") is asyncio.sleep


# -- HostTool ---------------------------------------------------------------------------------


def test_a_host_tool_needs_approval_unless_told_otherwise_and_offers_its_spec() -> None:
    async def handler() -> str:
        return ""

    tool = HostTool("deploy", handler)

    assert tool.approval == "required"
    assert tool.spec == ToolSpec("deploy", "", {"type": "object"})
    assert HostTool("x", handler, {"type": "object", "required": ["a"]}, "Does x.", "never").spec == ToolSpec(
        "x", "Does x.", {"type": "object", "required": ["a"]}
    )
    assert "handler" not in repr(tool)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        pytest.param("plain text", "plain text", id="text-as-is"),
        pytest.param({"ok": True, "city": "Zürich"}, '{"ok": true, "city": "Zürich"}', id="json"),
        pytest.param([1, None], "[1, null]", id="list"),
        pytest.param(None, "null", id="none"),
        pytest.param(datetime.date(2026, 11, 29), '"2026-11-29"', id="not-json-as-text"),
    ],
)
async def test_a_host_tool_result_becomes_text_for_the_model(value: Any, text: str) -> None:
    async def handler(**arguments: Any) -> Any:
        return value

    assert await HostTool("t", handler).call({}) == text


async def test_a_host_tool_is_called_with_the_arguments_as_keywords_and_a_failure_is_reported() -> None:
    async def divide(a: int, b: int) -> float:
        return a / b

    tool = HostTool("divide", divide)

    assert await tool.call({"a": 6, "b": 3}) == "2.0"
    assert await tool.call({"a": 1, "b": 0}) == "error: ZeroDivisionError: division by zero"
    assert (await tool.call({"a": 1})).startswith("error: TypeError: ")
