"""Every example runs against a live host (the chat loop is fed its lines on stdin), so none goes stale."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import Host

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
TIMEOUT_S = 60


def run_example(name: str, host: Host | None, stdin: str = "") -> str:
    env = {**os.environ}
    if host is not None:
        env |= {"AGENTIC_DRIVER_URL": host.base_url, "AGENTIC_DRIVER_TOKEN": host.token}
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name)],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=TIMEOUT_S,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_quickstart(host: Host) -> None:
    out = run_example("quickstart.py", host)
    assert "echo: My name is Ada." in out
    assert "recall: 2 messages; last user: My name is Ada." in out
    assert "refused: SESSION_REVISION_CONFLICT, the session is at revision 2" in out
    assert out.rstrip().endswith("deleted")


def test_streaming_chat_loop(host: Host) -> None:
    out = run_example("chat.py", host, stdin="Hello there\nMy name is Ada.\n!recall\n\nnot sent\n")
    assert out.splitlines() == [
        "> echo: Hello there",
        "> echo: My name is Ada.",
        "> recall: 4 messages; last user: My name is Ada.",
    ]


def test_function_calling(host: Host) -> None:
    out = run_example("function_calling.py", host)
    assert 'the model calls get_weather({"city": "Paris"})' in out
    assert 'get_weather -> {"city": "Paris", "sky": "clear", "celsius": 21}' in out


def test_reconciliation_after_a_lost_response(host: Host) -> None:
    out = run_example("reconcile.py", host)
    assert "it landed (revision 1); the reply was: 'echo: Book the table for two.'" in out
    assert "recall: 2 messages; last user: Book the table for two." in out


@pytest.mark.parametrize("name", ["demo.py"])
def test_the_make_demo_script_starts_its_own_host(name: str) -> None:
    out = run_example(name, None)
    assert "3. sent '!recall' -> 'recall: 2 messages; last user: My name is Ada.'" in out
    assert "stopped the host" in out


def test_a_stream_resumed_after_a_cut(host: Host) -> None:
    out = run_example("resume.py", host)
    assert out.splitlines() == [
        "delta: 'echo: A'",
        "delta: ' reply '",
        "delta: 'in four'",
        "delta: ' pieces'",
        "reply: 'echo: A reply in four pieces' (revision 1, events 1..6)",
        "the connection was cut after event 2; the client rejoined after ['2']",
        "run completed: last event 6, onDisconnect continue",
        "events after 4: ['OutputDeltaEvent', 'RunCompletedEvent']",
    ]


def test_the_readme_attachments_example(host: Host, tmp_path: Path) -> None:
    readme = (EXAMPLES.parent / "README.md").read_text(encoding="utf-8")
    code = readme.split("## Attachments", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    script = tmp_path / "attachments.py"
    script.write_text(code, encoding="utf-8")
    env = {**os.environ, "AGENTIC_DRIVER_URL": host.base_url, "AGENTIC_DRIVER_TOKEN": host.token}
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=TIMEOUT_S, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "echo: Summarise the notes.\n"
