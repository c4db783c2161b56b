"""Property: every invalid host JSON is one ConfigError whose lines each name a JSON path, at or around
what was broken; nothing else is ever raised, and the CLI reports it without a traceback (exit 2).

Configs are made by breaking a valid, complete one at a random path: a random JSON value in place of
the old one, the member removed, or an unknown member added. Files also come as random, truncated,
too deeply nested or repeated-key JSON text, and as bytes that are not UTF-8.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from agentic_driver.cli import main
from agentic_driver.config import ConfigError, load_config, parse_config

from .properties import PROPERTY_EXAMPLES, JsonPath, json_paths, json_values, tally

VALID: dict[str, Any] = {
    "hostId": "property-host",
    "providers": [
        {
            "id": "echo",
            "kind": "echo",
            "accountId": "acct-1",
            "models": ["echo-1", "echo-2"],
            "settings": {"native": True, "latencyMs": 0},
        }
    ],
    "sessions": {
        "retentionMs": 60_000,
        "maxEntries": 100,
        "maxMessages": 50,
        "maxRecordBytes": 100_000,
        "maxNativeMessages": 100,
    },
    "limits": {
        "maxConcurrentRuns": 4,
        "maxQueuedRuns": 8,
        "maxBodyBytes": 65_536,
        "heartbeatMs": 1_000,
        "streamStallMs": 1_000,
        "drainTimeoutMs": 1_000,
        "bodyTimeoutMs": 1_000,
        "requestHeadTimeoutMs": 1_000,
        "keepAliveTimeoutMs": 1_000,
        "maxHeaderBytes": 8_192,
        "maxConnections": 10,
    },
    "idempotency": {"maxKeys": 10, "ttlMs": 1_000},
    "tools": [
        {
            "name": "note",
            "handler": "some.module:note",
            "description": "Write a note.",
            "parameters": {"type": "object"},
            "approval": "required",
        }
    ],
    "tokens": [
        {"subject": "alice", "token": "alice-secret-0000001", "providers": ["echo"], "sessions": ["create", "read"]},
        {"subject": "bob", "tokenSha256": "0" * 64, "providers": ["*"], "sessions": []},
    ],
}


PATHS = json_paths(VALID)


def render(path: JsonPath) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text or "(root)"


def related(line: str, broken: JsonPath) -> bool:
    """The problem line leads with the broken path, one of its ancestors, or a path inside it."""
    ancestors = [render(broken[:n]) for n in range(1, len(broken) + 1)]
    if any(line.startswith(a + ": ") for a in ancestors):
        return True
    inside = render(broken)
    return line.startswith((inside + ".", inside + "["))


@st.composite
def broken_configs(draw: st.DrawFn) -> tuple[dict[str, Any] | Any, JsonPath, str]:
    config = copy.deepcopy(VALID)
    path = draw(st.sampled_from(PATHS))
    how = draw(st.sampled_from(["replace", "remove", "add"]))
    if not path:
        return draw(json_values), path, "replace"
    parent: Any = config
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    if how == "replace" or (how == "remove" and isinstance(parent, list)):
        parent[last] = draw(json_values)
        how = "replace"
    elif how == "remove":
        del parent[last]
    else:
        target = parent[last]
        if not isinstance(target, dict):
            parent[last] = draw(json_values)
            how = "replace"
        else:
            name = draw(st.text(min_size=1, max_size=12).filter(lambda n: n not in target))
            target[name] = draw(json_values)
            path = (*path, name)
    return config, path, how


def check_error(error: ConfigError, broken: JsonPath | None) -> None:
    text = str(error)
    assert text.startswith("invalid host configuration:\n  ")
    assert error.problems and text.count("\n") == len(error.problems)
    for line in error.problems:
        path, separator, message = line.partition(": ")
        assert separator and path and message.strip(), f"a problem that does not lead with a path: {line!r}"
        assert "Traceback" not in line
    if broken:
        assert any(related(line, broken) for line in error.problems), (render(broken), error.problems)


def test_the_valid_config_is_valid() -> None:
    parse_config(VALID)


@settings(max_examples=PROPERTY_EXAMPLES * 2, suppress_health_check=[HealthCheck.too_slow])
@given(broken_configs())
@example((copy.deepcopy(VALID) | {"sessions": {"retentionMs": 0}}, ("sessions", "retentionMs"), "replace"))
@example((copy.deepcopy(VALID) | {"limits": {"maxConnections": 10**400}}, ("limits", "maxConnections"), "replace"))
def test_every_broken_config_is_one_error_naming_its_path(case: tuple[Any, JsonPath, str]) -> None:
    config, path, how = case
    tally("config", how)
    try:
        parse_config(config)
    except ConfigError as error:
        check_error(error, path)


raw_documents = st.one_of(
    st.binary(max_size=200),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.integers(1, 50_000).map(lambda n: b"[" * n),
    st.integers(1, 50_000).map(lambda n: b'{"a":' * n + b"1" + b"}" * n),
    st.sampled_from(
        [
            b"",
            b"\xef\xbb\xbf{}",
            b'{"providers": [], "providers": []}',
            json.dumps(VALID).encode()[:-1],
            json.dumps(VALID).encode().replace(b'"echo"', b'"\\ud800"', 1),
            b"NaN",
            b'{"hostId": 1e999}',
        ]
    ),
)


@settings(max_examples=PROPERTY_EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
@given(raw_documents)
def test_every_unreadable_config_file_is_one_error(tmp_path_factory: pytest.TempPathFactory, raw: bytes) -> None:
    tally("config", "file")
    path = tmp_path_factory.mktemp("config") / "host.json"
    path.write_bytes(raw)
    try:
        load_config(path)
    except ConfigError as error:
        check_error(error, None)


@settings(
    max_examples=max(10, PROPERTY_EXAMPLES // 5),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(broken_configs())
def test_the_cli_reports_a_broken_config_without_a_traceback(
    tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str], case: tuple[Any, JsonPath, str]
) -> None:
    config, _, _ = case
    try:
        parse_config(config)
    except ConfigError:
        pass
    else:
        return  # a valid config would start serving
    tally("config", "cli")
    path: Path = tmp_path_factory.mktemp("cli") / "host.json"
    path.write_text(json.dumps(config))
    capsys.readouterr()
    assert main(["serve", "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("agentic-driver: invalid host configuration:\n")
    assert "Traceback" not in err
