"""Qualification end to end: a host whose JSON requires a record refuses native sessions over HTTP until
``agentic-driver qualify`` (a separate process) has qualified the instance and model against its fake."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from agentic_driver_client.api.discovery import get_discovery
from agentic_driver_client.api.sessions import create_session
from agentic_driver_client.models import Discovery
from fakes import AnthropicFake

from .conftest import (
    ALICE,
    ALL_GRANTS,
    RETENTION_MS,
    Host,
    assert_problem,
    create_request,
    new_session,
    run_ok,
    run_request,
    token_entry,
)

KEY = "sk-e2e-qualify-key-0001"
KEY_ENV = "AGENTIC_DRIVER_E2E_QUALIFY_KEY"
COMMAND_TIMEOUT_S = 120


def _native_advertised(host: Host) -> bool:
    with host.client(ALICE) as api:
        discovery = get_discovery.sync_detailed(client=api).parsed
    assert isinstance(discovery, Discovery)
    return bool(discovery.providers[0].capabilities.native_continuation)


def test_native_is_refused_until_qualify_writes_a_current_record(launch: Callable[..., Host], tmp_path: Path) -> None:
    records = tmp_path / "records"
    with AnthropicFake(api_key=KEY) as fake:
        config = {
            "hostId": "e2e-qualify",
            "providers": [
                {
                    "id": "claude",
                    "kind": "anthropic",
                    "accountId": "acct-q",
                    "models": ["m-1"],
                    "baseUrl": fake.base_url,
                    "apiKeyEnv": KEY_ENV,
                    "maxRetries": 0,
                    "extraBody": {"thinking": {"type": "enabled", "budget_tokens": 1024}},
                }
            ],
            "sessions": {"retentionMs": RETENTION_MS},
            "tokens": [token_entry("alice", ALICE, ["*"], ALL_GRANTS)],
            "qualification": {"recordDir": str(records), "maxAgeDays": 1},
        }
        host = launch("qualify", config, env={KEY_ENV: KEY})
        assert _native_advertised(host) is False
        with host.client(ALICE) as api:
            refused = create_session.sync_detailed(client=api, body=create_request("claude", "native", "m-1"))
        body = assert_problem(refused, 422, "UNSUPPORTED_CONTINUATION")
        assert f"no record at {records / 'claude' / 'm-1.json'}" in body["detail"]

        config_path = tmp_path / "host.json"
        config_path.write_text(json.dumps(config), encoding="utf-8")
        command = ["qualify", "--config", str(config_path), "--provider", "claude", "--model", "m-1"]
        done = subprocess.run(
            [sys.executable, "-m", "agentic_driver", *command],
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT_S,
            check=False,
            env={**os.environ, KEY_ENV: KEY},
        )
        assert done.returncode == 0, done.stderr
        record = json.loads(done.stdout)
        assert record["result"] == "passed"
        assert record["identity"]["accountId"] == "acct-q"
        assert json.loads((records / "claude" / "m-1.json").read_text(encoding="utf-8")) == record

        # The running host reads the new record: no restart.
        assert _native_advertised(host) is True
        with host.client(ALICE) as api:
            session = new_session(api, provider="claude", model="m-1", mode="native")
            first = run_ok(api, run_request("Remember: teal.", session))
            second = run_ok(api, run_request("What did I say?", first.session))
        assert second.output.text == "You said: What did I say?. Before that you said: Remember: teal.."
