"""Operator tooling end to end: a token made by ``agentic-driver token create`` goes into a host JSON that
``agentic-driver config check`` accepts, and a real host started from it authenticates exactly that token."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agentic_driver_client.api.discovery import get_discovery
from agentic_driver_client.models import Discovery

from .conftest import RETENTION_MS, Host, assert_problem, echo_provider

COMMAND_TIMEOUT_S = 60
TOKEN_LINE = re.compile(r"^token \(shown once; give it to the application\): (\S+)$")


def agentic_driver(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "agentic_driver", *arguments],
        capture_output=True,
        text=True,
        timeout=COMMAND_TIMEOUT_S,
        check=False,
    )


def create_token(subject: str, providers: list[str], grants: list[str]) -> tuple[str, dict[str, Any]]:
    done = agentic_driver("token", "create", "--subject", subject, "--providers", *providers, "--grants", *grants)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    match = TOKEN_LINE.match(lines[0])
    assert match is not None, done.stdout
    entry: dict[str, Any] = json.loads("\n".join(lines[2:]))
    return match.group(1), entry


def test_a_created_token_works_on_a_host_whose_config_check_passes(launch: Callable[..., Host], tmp_path: Path) -> None:
    token, entry = create_token("ops", ["echo"], ["create", "read"])
    config = {
        "hostId": "e2e-operator",
        "providers": [echo_provider("echo"), echo_provider("echo-2")],
        "sessions": {"retentionMs": RETENTION_MS},
        "tokens": [entry],
    }
    path = tmp_path / "host.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    checked = agentic_driver("config", "check", str(path))
    assert (checked.returncode, checked.stdout) == (0, f"{path}: valid\n")

    host = launch("operator", config)

    with host.client(token) as ops:
        response = get_discovery.sync_detailed(client=ops)
    assert isinstance(response.parsed, Discovery)
    assert response.parsed.subject == "ops"
    assert response.parsed.session_grants == ["create", "read"]
    assert [p.id for p in response.parsed.providers] == ["echo"]
    for wrong in (entry["tokenSha256"], token[:-1]):
        with host.raw(wrong) as http:
            assert_problem(http.get("/v1/discovery"), 401, "UNAUTHENTICATED")


def test_config_check_reports_an_unknown_token_provider_with_the_schema_errors(tmp_path: Path) -> None:
    _, entry = create_token("ops", ["nope"], [])
    config = {"providers": [{"id": "echo", "kind": "echo", "models": []}], "tokens": [entry], "sessions": {}}
    path = tmp_path / "host.json"
    path.write_text(json.dumps(config), encoding="utf-8")

    checked = agentic_driver("config", "check", str(path))

    assert checked.returncode == 1
    assert sorted(line.split(": ", 1)[0] for line in checked.stdout.splitlines()) == [
        "providers[0].models",
        "sessions.retentionMs",
        "tokens[0].providers",
    ]
    assert "tokens[0].providers: unknown provider 'nope'" in checked.stdout.splitlines()
