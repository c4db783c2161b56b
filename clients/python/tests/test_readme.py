"""The READMEs' Python examples run, as printed there, against a live host and print what they say."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import Host

README = Path(__file__).resolve().parents[3] / "README.md"


def readme_example() -> str:
    section = README.read_text("utf-8").split("## A session from Python", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_readme_python_example_runs_and_prints_what_its_comments_say(host: Host, tmp_path: Path) -> None:
    code = readme_example()
    assert 'base_url="http://127.0.0.1:8080"' in code and 'token="<the token make serve printed>"' in code
    script = tmp_path / "readme_example.py"
    script.write_text(
        code.replace("http://127.0.0.1:8080", host.base_url).replace("<the token make serve printed>", host.token)
    )

    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)

    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "recall: 2 messages; last user: My name is Ada.",
        "SESSION_REVISION_CONFLICT 2",
        "echo: Hello",
        "3",
        "['My name is Ada.', 'echo: My name is Ada.', '!recall', 'recall: 2 messages; last user: My name is Ada.', "
        "'!chunks 3\\nHello', 'echo: Hello']",
    ]


def test_the_sdk_readme_retry_row_lists_what_the_retry_policy_retries() -> None:
    from agentic_driver_sdk import _base

    sdk_readme = (Path(__file__).resolve().parents[1] / "README.md").read_text("utf-8")
    row = next(line for line in sdk_readme.splitlines() if line.startswith("| **Retries**"))
    retried, never = row.split("Retried:", 1)[1].split("Never:", 1)

    assert set(re.findall(r"`([A-Z]+_[A-Z_]+)`", retried)) == _base.RETRIED_CODES
    assert {int(status) for status in re.findall(r"\b(5\d\d)\b", retried)} == _base.PROXY_STATUSES
    assert not set(re.findall(r"`([A-Z]+_[A-Z_]+)`", never)) & _base.RETRIED_CODES


def test_the_sdk_readme_resume_example_runs_against_a_live_host(host: Host, capsys: pytest.CaptureFixture[str]) -> None:
    from agentic_driver_sdk import AgenticDriver

    sdk_readme = (Path(__file__).resolve().parents[1] / "README.md").read_text("utf-8")
    code = sdk_readme.split("## Resuming a stream", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    assert 'on_disconnect="continue"' in code and "runs.retrieve" in code and "runs.events" in code
    with AgenticDriver(base_url=host.base_url, token=host.token) as client:
        session = client.sessions.create(provider="echo", model="echo-1")
        exec(compile(code, "README.md", "exec"), {"client": client, "session": session})
    assert capsys.readouterr().out == "echo: Hi there4\n"


def test_the_sdk_readme_fork_example_runs_against_a_live_host(host: Host, capsys: pytest.CaptureFixture[str]) -> None:
    from agentic_driver_sdk import AgenticDriver

    sdk_readme = (Path(__file__).resolve().parents[1] / "README.md").read_text("utf-8")
    code = sdk_readme.split("## Forking a session", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    assert "client.sessions.fork(" in code
    with AgenticDriver(base_url=host.base_url, token=host.token) as client:
        session = client.sessions.create(provider="echo", model="echo-1")
        exec(compile(code, "README.md", "exec"), {"client": client, "session": session})
    assert capsys.readouterr().out == "1 True\nrecall: 2 messages; last user: My name is Ada.\n2\n"
