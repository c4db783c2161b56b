"""Operator tooling: ``agentic-driver token create`` and ``agentic-driver config check``.

Most tests call ``main(argv)`` and read stdout with capsys; one test per command runs the real command in a
subprocess (``python -m agentic_driver``), the way an operator would.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agentic_driver import TokenPolicy, parse_config
from agentic_driver.cli import main
from agentic_driver.config import PriceConfig

TOKEN_LINE = re.compile(r"^token \(shown once; give it to the application\): (\S+)$")
RUN_TIMEOUT_S = 60


def split_token_output(out: str) -> tuple[str, dict[str, Any]]:
    """The printed token and the host JSON entry that follows it."""
    lines = out.splitlines()
    match = TOKEN_LINE.match(lines[0])
    assert match is not None, out
    assert lines[1] == 'host JSON entry for "tokens":'
    entry: dict[str, Any] = json.loads("\n".join(lines[2:]))
    return match.group(1), entry


def host_config(*tokens: dict[str, Any]) -> dict[str, Any]:
    return {
        "providers": [
            {"id": "echo", "kind": "echo", "accountId": "acct-1"},
            {"id": "echo-2", "kind": "echo", "accountId": "acct-2"},
        ],
        "sessions": {"retentionMs": 60_000},
        "tokens": list(tokens),
    }


def write(tmp_path: Path, name: str, data: Any) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return path


# -- token create ------------------------------------------------------------------------------------------


def test_token_create_prints_a_token_once_and_an_entry_holding_only_its_sha256(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["token", "create", "--subject", "app-user-42", "--providers", "echo", "--grants", "create", "read"])

    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    token, entry = split_token_output(out)
    assert len(token) >= 32
    assert out.count(token) == 1  # shown once, and not inside the entry
    assert entry == {
        "subject": "app-user-42",
        "tokenSha256": hashlib.sha256(token.encode("utf-8")).hexdigest(),
        "providers": ["echo"],
        "sessions": ["create", "read"],
    }


def test_a_created_entry_works_in_a_host_config_and_authenticates_its_token_only(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["token", "create", "--subject", "alice", "--providers", "echo", "echo-2", "--grants", "read"]) == 0
    alice_token, alice = split_token_output(capsys.readouterr().out)
    assert (
        main(
            [
                "token",
                "create",
                "--subject",
                "ops",
                "--providers",
                "*",
                "--grants",
                "create",
                "read",
                "continue",
                "delete",
            ]
        )
        == 0
    )
    ops_token, ops = split_token_output(capsys.readouterr().out)
    assert alice_token != ops_token  # random every time

    config = parse_config(host_config(alice, ops))
    policy = TokenPolicy(config.tokens)

    principal = policy.authenticate(alice_token)
    assert principal is not None
    assert (principal.subject, principal.providers, principal.grants) == (
        "alice",
        frozenset({"echo", "echo-2"}),
        frozenset({"read"}),
    )
    everything = policy.authenticate(ops_token)
    assert everything is not None
    assert (everything.subject, everything.providers) == ("ops", None)  # "*": every instance
    assert everything.grants == frozenset({"create", "read", "continue", "delete"})
    assert policy.authenticate(alice["tokenSha256"]) is None  # the hash is not a credential
    assert policy.authenticate(alice_token + "x") is None


def test_token_create_without_grants_gives_an_entry_with_no_session_grants(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["token", "create", "--subject", "stateless", "--providers", "echo"]) == 0

    token, entry = split_token_output(capsys.readouterr().out)

    assert entry["sessions"] == []
    principal = TokenPolicy(parse_config(host_config(entry)).tokens).authenticate(token)
    assert principal is not None and principal.grants == frozenset()


@pytest.mark.parametrize(
    "argv",
    [
        ["token", "create", "--subject", "s", "--providers", "echo", "--grants", "fly"],  # not a grant
        ["token", "create", "--providers", "echo"],  # no subject
        ["token", "create", "--subject", "s"],  # no providers
        ["token"],
    ],
)
def test_token_create_refuses_bad_arguments_with_usage_and_exit_status_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)

    assert exited.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "usage:" in err


def test_token_create_runs_as_a_command(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "agentic_driver", "token", "create", "--subject", "s", "--providers", "echo"],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_S,
        check=False,
        cwd=tmp_path,
    )

    assert (done.returncode, done.stderr) == (0, "")
    token, entry = split_token_output(done.stdout)
    assert entry["tokenSha256"] == hashlib.sha256(token.encode()).hexdigest()


# -- config check ------------------------------------------------------------------------------------------

INVALID = {
    "providers": [
        {"id": "echo", "kind": "ecco"},
        {
            "id": "echo",
            "kind": "echo",
            "models": ["echo"],
            "prices": {"echo": {"inputPerMillion": -1, "outputPerMillion": 2}},
        },
    ],
    "sessions": {"retentionMs": 0, "maxMessages": 1000},
    "limits": {"maxBodyBytes": 10},
    "tokens": [
        {"subject": "a", "tokenSha256": "not-hex", "providers": ["nope", "echo"], "sessions": ["create", "fly"]},
        {"subject": "b", "providers": ["*"]},
    ],
    "bogus": 1,
}

EXPECTED_PATHS = [
    "providers[0].kind",
    "providers[1].prices.echo.inputPerMillion",  # a model named like the provider kind keeps its place in the path
    "sessions.retentionMs",
    "sessions.maxMessages",
    "limits.maxBodyBytes",
    "tokens[0].tokenSha256",
    "tokens[0].sessions[1]",
    "tokens[1]",  # neither token, tokenEnv nor tokenSha256
    "bogus",
    "providers[1].id",  # the repeated id
    "tokens[0].providers",  # the unknown provider 'nope', reported with the schema errors
]


def test_config_check_of_a_valid_file_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(
        tmp_path, "host.json", host_config({"subject": "a", "token": "a-secret-of-16-chars", "providers": ["*"]})
    )

    assert main(["config", "check", str(path)]) == 0

    out, err = capsys.readouterr()
    assert (out, err) == (f"{path}: valid\n", "")


def test_config_check_lists_every_problem_each_led_by_its_json_path_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "host.json", INVALID)

    assert main(["config", "check", str(path)]) == 1

    lines = capsys.readouterr().out.splitlines()
    paths = [line.split(": ", 1)[0] for line in lines]
    assert sorted(paths) == sorted(EXPECTED_PATHS), lines
    assert all(": " in line and line.split(": ", 1)[1] for line in lines)
    assert "tokens[0].providers: unknown provider 'nope'" in lines
    assert "providers[1].id: duplicate provider id 'echo' (first at providers[0])" in lines
    assert any(
        line.startswith("tokens[1]: ") and "exactly one of token, tokenEnv, tokenSha256" in line for line in lines
    )


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "(file): not JSON: "),
        ("[]", "(root): "),
    ],
)
def test_config_check_of_a_file_that_is_not_a_config_object_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, expected: str
) -> None:
    path = write(tmp_path, "host.json", content)

    assert main(["config", "check", str(path)]) == 1

    assert capsys.readouterr().out.startswith(expected)


def test_config_check_of_a_missing_file_exits_1_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "absent.json"

    assert main(["config", "check", str(missing)]) == 1

    assert capsys.readouterr().out.startswith(f"(file): cannot read {missing}")


def test_config_check_runs_as_a_command(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.json", INVALID)
    good = write(tmp_path, "good.json", host_config())

    def check(path: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "agentic_driver", "config", "check", str(path)],
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT_S,
            check=False,
        )

    failed = check(bad)
    assert failed.returncode == 1
    assert len(failed.stdout.splitlines()) == len(EXPECTED_PATHS)
    passed = check(good)
    assert (passed.returncode, passed.stdout) == (0, f"{good}: valid\n")


def test_prices_are_validated_as_part_of_the_config() -> None:
    config = parse_config(
        {
            "providers": [
                {
                    "id": "echo",
                    "kind": "echo",
                    "prices": {"echo-1": {"inputPerMillion": 1.5, "outputPerMillion": 6, "cacheWritePerMillion": 2}},
                }
            ]
        }
    )

    assert config.providers[0].prices == {
        "echo-1": PriceConfig(inputPerMillion=1.5, outputPerMillion=6, cacheWritePerMillion=2)
    }
    assert config.providers[0].prices["echo-1"].cachedInputPerMillion is None


def test_config_check_validates_the_restart_snapshot_where_it_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    config = host_config({"subject": "a", "token": "a-secret-of-16-chars", "providers": ["*"]})
    config["sessions"] = {
        "retentionMs": 1000,
        "snapshot": {"path": str(tmp_path / "missing-dir" / "s.snapshot"), "keyEnv": "CHECK_SNAPSHOT_KEY"},
    }
    path = write(tmp_path, "host.json", config)
    monkeypatch.delenv("CHECK_SNAPSHOT_KEY", raising=False)

    assert main(["config", "check", str(path)]) == 1
    out, _ = capsys.readouterr()
    assert "the environment variable CHECK_SNAPSHOT_KEY is not set" in out
    assert f"the directory {tmp_path / 'missing-dir'} does not exist" in out

    monkeypatch.setenv("CHECK_SNAPSHOT_KEY", "ab" * 32)
    config["sessions"]["snapshot"]["path"] = str(tmp_path / "s.snapshot")
    write(tmp_path, "host.json", config)
    assert main(["config", "check", str(path)]) == 0
    config["sessions"]["snapshot"]["keyEnv"] = "not a name"
    write(tmp_path, "host.json", config)
    assert main(["config", "check", str(path)]) == 1
    assert "sessions.snapshot.keyEnv" in capsys.readouterr().out
