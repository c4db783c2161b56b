"""``reload_auth`` (what SIGHUP runs) and ``agentic-driver reload``: a new policy or the old one, and a log line."""

from __future__ import annotations

import json
import logging
import signal
from pathlib import Path
from typing import Any

import pytest

from agentic_driver import cli
from agentic_driver.bearer import Authenticator, BearerPolicy
from agentic_driver.config import embedded_default, load_config
from agentic_driver.errors import Unauthenticated
from agentic_driver.logs import Redactor

OLD = "old-static-token-value-001"
NEW = "new-static-token-value-002"
TOO_SHORT = "tiny-secret"


def write(path: Path, tokens: list[dict[str, Any]]) -> Path:
    config = {"providers": [{"id": "echo", "kind": "echo"}], "tokens": tokens}
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


def token(subject: str, secret: str) -> dict[str, Any]:
    return {"subject": subject, "token": secret, "providers": ["*"], "sessions": ["read"]}


async def test_a_valid_file_replaces_the_policy_and_its_new_secrets_are_redacted(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = write(tmp_path / "host.json", [token("old", OLD)])
    auth = Authenticator(BearerPolicy.from_config(load_config(path)))
    redactor = Redactor()
    write(path, [token("new", NEW)])

    with caplog.at_level(logging.INFO, logger="agentic_driver.http"):
        assert cli.reload_auth(str(path), auth, redactor) is True

    assert (await auth.principal(f"Bearer {NEW}")).subject == "new"
    with pytest.raises(Unauthenticated):
        await auth.principal(f"Bearer {OLD}")
    assert "tokens and auth reloaded" in caplog.text and "BearerPolicy(1 tokens, 0 issuers)" in caplog.text
    assert redactor(f"a line with {NEW}") == "a line with [redacted]"


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        json.dumps({"providers": [{"id": "echo", "kind": "echo"}], "tokens": [token("x", TOO_SHORT)]}),
        json.dumps(
            {
                "providers": [{"id": "echo", "kind": "echo"}],
                "tokens": [{"subject": "e", "tokenEnv": "AD_RELOAD_UNSET_VARIABLE", "providers": ["*"]}],
            }
        ),
    ],
    ids=["not-json", "invalid-field", "token-env-unset"],
)
async def test_a_file_that_cannot_be_used_keeps_the_policy_and_says_why(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, content: str
) -> None:
    path = write(tmp_path / "host.json", [token("old", OLD)])
    auth = Authenticator(BearerPolicy.from_config(load_config(path)))
    before = auth.policy
    path.write_text(content, encoding="utf-8")

    with caplog.at_level(logging.INFO, logger="agentic_driver.http"):
        assert cli.reload_auth(str(path), auth, Redactor()) is False

    assert auth.policy is before
    assert (await auth.principal(f"Bearer {OLD}")).subject == "old"
    assert "not reloaded, the tokens and auth in force stay" in caplog.text
    assert TOO_SHORT not in caplog.text  # a secret of the refused file is never shown


def test_the_embedded_default_has_nothing_to_reload(caplog: pytest.LogCaptureFixture) -> None:
    auth = Authenticator(BearerPolicy.from_config(embedded_default("t" * 24)[0]))

    with caplog.at_level(logging.WARNING, logger="agentic_driver.http"):
        assert cli.reload_auth(None, auth, Redactor()) is False

    assert "nothing to reload" in caplog.text


def test_the_reload_command_signals_the_pid_only_for_a_valid_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(cli.os, "kill", lambda pid, sig: sent.append((pid, sig)))
    good = write(tmp_path / "good.json", [token("a", OLD)])
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")

    assert cli.main(["reload", "--pid", "4242", "--config", str(bad)]) == 1
    assert "no signal sent" in capsys.readouterr().err
    assert cli.main(["reload", "--pid", "4242", "--config", str(good)]) == 0
    assert cli.main(["reload", "--pid", "4243"]) == 0

    assert sent == [(4242, signal.SIGHUP), (4243, signal.SIGHUP)]


def test_the_reload_command_reports_a_process_it_cannot_signal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def refuse(pid: int, sig: int) -> None:
        raise ProcessLookupError(3, "No such process")

    monkeypatch.setattr(cli.os, "kill", refuse)

    assert cli.main(["reload", "--pid", "4242"]) == 1
    assert "cannot signal process 4242: No such process" in capsys.readouterr().err


def test_config_check_reads_the_jwks_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entry = {"issuer": "i", "audience": "a", "algorithms": ["RS256"], "providers": ["*"]}
    config = {"providers": [{"id": "echo", "kind": "echo"}], "auth": {"jwt": [{**entry, "jwksFile": "gone.json"}]}}
    path = tmp_path / "host.json"
    path.write_text(json.dumps(config), encoding="utf-8")

    assert cli.main(["config", "check", str(path)]) == 1
    assert capsys.readouterr().out.startswith("auth.jwt[0].jwksFile: cannot read gone.json")

    (tmp_path / "keys.json").write_text('{"keys": []}', encoding="utf-8")
    config["auth"] = {"jwt": [{**entry, "jwksFile": str(tmp_path / "keys.json")}]}
    path.write_text(json.dumps(config), encoding="utf-8")
    assert cli.main(["config", "check", str(path)]) == 0
