"""Ids name the host process that owns them; ``--host-id`` and ``AGENTIC_DRIVER_HOST_ID`` override host JSON."""

from __future__ import annotations

import subprocess
from collections.abc import Callable

import pytest

from .conftest import ALICE, RETENTION_MS, SERVE, Host, simple_config

SESSIONS = {"retentionMs": RETENTION_MS}


def first_turn(host: Host) -> tuple[str, str, str]:
    """(discovery's hostId, a new session's id, its first run's id), over HTTP."""
    with host.raw(ALICE) as http:
        host_id = http.get("/v1/discovery").json()["hostId"]
        session = http.post("/v1/sessions", json={"provider": "echo", "model": "echo-1", "mode": "history"}).json()
        handle = {"id": session["session"]["id"], "revision": 0}
        result = http.post("/v1/runs", json={"provider": "echo", "model": "echo-1", "input": "hi", "session": handle})
    assert result.status_code == 200, result.text
    return host_id, handle["id"], result.json()["id"]


def test_session_and_run_ids_name_the_host_from_host_json(launch: Callable[..., Host]) -> None:
    host = launch("ids-json", simple_config("from-json", sessions=SESSIONS))

    host_id, session_id, run_id = first_turn(host)

    assert host_id == "from-json"
    assert session_id.startswith("ses_from-json.") and len(session_id) == len("ses_from-json.") + 22
    assert run_id.startswith("run_from-json.") and len(run_id) == len("run_from-json.") + 22


def test_the_environment_overrides_host_json_and_the_flag_overrides_both(launch: Callable[..., Host]) -> None:
    config = simple_config("from-json", sessions=SESSIONS)
    by_env = launch("ids-env", config, env={"AGENTIC_DRIVER_HOST_ID": "from-env"})
    by_flag = launch("ids-flag", config, env={"AGENTIC_DRIVER_HOST_ID": "from-env"}, args=("--host-id", "from-flag"))

    env_host, env_session, env_run = first_turn(by_env)
    flag_host, flag_session, flag_run = first_turn(by_flag)

    assert (env_host, env_session[:13], env_run[:13]) == ("from-env", "ses_from-env.", "run_from-env.")
    assert (flag_host, flag_session[:14], flag_run[:14]) == ("from-flag", "ses_from-flag.", "run_from-flag.")


@pytest.mark.parametrize("bad", ["Web_1", "web.1"])
def test_a_bad_host_id_flag_stops_the_host_with_a_clear_error_naming_the_flag(bad: str) -> None:
    done = subprocess.run(
        [*SERVE, "--port", "0", "--host-id", bad], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
    )

    assert done.returncode == 2
    assert f"--host-id: {bad!r} is not a DNS label" in done.stderr
