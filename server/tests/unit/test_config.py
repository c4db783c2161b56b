"""Host JSON validation: every problem names its JSON path; session bounds may only tighten."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agentic_driver.config import (
    DEFAULT_MAX_ENTRIES,
    DEFAULT_MAX_MESSAGES,
    DEFAULT_MAX_NATIVE_MESSAGES,
    DEFAULT_MAX_RECORD_BYTES,
    HOST_ID_ENV,
    ConfigError,
    HostConfig,
    LimitsConfig,
    embedded_default,
    load_config,
    parse_config,
    with_host_id,
)

ECHO = {"id": "echo", "kind": "echo"}
SECRET = "a-local-secret-of-some-length"


def test_a_minimal_config_takes_the_documented_defaults() -> None:
    config = parse_config({"providers": [ECHO]})

    assert config.hostId == "local-host"
    assert config.sessions is None
    assert config.tokens == []
    assert config.limits.maxConcurrentRuns == 64
    assert config.limits.maxBodyBytes == 4 * 1024 * 1024
    provider = config.providers[0]
    assert (provider.id, provider.kind, provider.accountId, provider.models) == ("echo", "echo", None, ["echo-1"])
    assert provider.settings.native is True
    assert provider.settings.latencyMs == 0


def test_sessions_default_to_the_contract_bounds_when_only_retention_is_set() -> None:
    config = parse_config({"providers": [ECHO], "sessions": {"retentionMs": 1_000}})

    assert config.sessions is not None
    assert config.sessions.retentionMs == 1_000
    assert (DEFAULT_MAX_ENTRIES, DEFAULT_MAX_MESSAGES, DEFAULT_MAX_RECORD_BYTES, DEFAULT_MAX_NATIVE_MESSAGES) == (
        1_000,
        100,
        1_000_000,
        2_048,
    )
    assert config.sessions.maxEntries == DEFAULT_MAX_ENTRIES
    assert config.sessions.maxMessages == DEFAULT_MAX_MESSAGES
    assert config.sessions.maxRecordBytes == DEFAULT_MAX_RECORD_BYTES
    assert config.sessions.maxNativeMessages == DEFAULT_MAX_NATIVE_MESSAGES


def test_session_bounds_may_tighten_the_defaults() -> None:
    config = parse_config(
        {
            "providers": [ECHO],
            "sessions": {
                "retentionMs": 1_000,
                "maxEntries": 1,
                "maxMessages": 2,
                "maxRecordBytes": 3,
                "maxNativeMessages": 4,
            },
        }
    )

    assert config.sessions is not None
    assert (
        config.sessions.maxEntries,
        config.sessions.maxMessages,
        config.sessions.maxRecordBytes,
        config.sessions.maxNativeMessages,
    ) == (1, 2, 3, 4)


@pytest.mark.parametrize(
    ("data", "path", "fragment"),
    [
        pytest.param({"providers": [{"id": "echo", "kind": "ecco"}]}, "providers[0].kind", "'echo'", id="kind"),
        pytest.param({"providers": []}, "providers", "at least 1", id="no-providers"),
        pytest.param(
            {"providers": [ECHO, ECHO]}, "providers[1].id", "duplicate provider id 'echo'", id="duplicate-ids"
        ),
        pytest.param(
            {"providers": [{**ECHO, "models": [""]}]}, "providers[0].models[0]", "at least 1 character", id="model"
        ),
        pytest.param(
            {"providers": [{**ECHO, "settings": {"latencyMs": -1}}]},
            "providers[0].settings.latencyMs",
            "greater than or equal to 0",
            id="latency",
        ),
        pytest.param({"providers": [ECHO], "bogus": 1}, "bogus", "Extra inputs are not permitted", id="unknown-field"),
        pytest.param(
            {"providers": [{**ECHO, "colour": "red"}]},
            "providers[0].colour",
            "Extra inputs",
            id="unknown-provider-field",
        ),
        pytest.param({"providers": [ECHO], "sessions": {}}, "sessions.retentionMs", "Field required", id="retention"),
        pytest.param(
            {"providers": [ECHO], "sessions": {"retentionMs": 0}},
            "sessions.retentionMs",
            "greater than or equal to 1",
            id="retention-zero",
        ),
        pytest.param(
            {"providers": [ECHO], "sessions": {"retentionMs": "1000"}},
            "sessions.retentionMs",
            "valid integer",
            id="retention-as-string",
        ),
        pytest.param(
            {"providers": [ECHO], "sessions": {"retentionMs": 1, "maxEntries": 1_001}},
            "sessions.maxEntries",
            "less than or equal to 1000",
            id="max-entries-loosened",
        ),
        pytest.param(
            {"providers": [ECHO], "sessions": {"retentionMs": 1, "maxMessages": 101}},
            "sessions.maxMessages",
            "less than or equal to 100",
            id="max-messages-loosened",
        ),
        pytest.param(
            {"providers": [ECHO], "sessions": {"retentionMs": 1, "maxRecordBytes": 1_000_001}},
            "sessions.maxRecordBytes",
            "less than or equal to 1000000",
            id="max-record-bytes-loosened",
        ),
        pytest.param(
            {"providers": [ECHO], "sessions": {"retentionMs": 1, "maxNativeMessages": 2_049}},
            "sessions.maxNativeMessages",
            "less than or equal to 2048",
            id="max-native-messages-loosened",
        ),
        pytest.param(
            {"providers": [ECHO], "limits": {"maxRunEventBytes": 1_048_577}},
            "limits.maxRunEventBytes",
            "less than or equal to 1048576",
            id="max-run-event-bytes-loosened",
        ),
        pytest.param(
            {"providers": [ECHO], "runs": {"retentionMs": 300_001}},
            "runs.retentionMs",
            "less than or equal to 300000",
            id="run-retention-loosened",
        ),
        pytest.param(
            {"providers": [ECHO], "runs": {"maxEntries": 0}},
            "runs.maxEntries",
            "greater than or equal to 1",
            id="run-entries-zero",
        ),
        pytest.param(
            {"providers": [ECHO], "runs": {"retention": 1}},
            "runs.retention",
            "Extra inputs are not permitted",
            id="run-unknown-field",
        ),
        pytest.param(
            {"providers": [ECHO], "limits": {"maxBodyBytes": 10}},
            "limits.maxBodyBytes",
            "greater than or equal to 1024",
            id="max-body-bytes",
        ),
        pytest.param(
            {"providers": [ECHO], "tokens": [{"subject": "a", "providers": ["*"]}]},
            "tokens[0]",
            "exactly one of token, tokenEnv, tokenSha256",
            id="token-without-secret",
        ),
        pytest.param(
            {"providers": [ECHO], "tokens": [{"subject": "a", "providers": ["*"], "token": SECRET, "tokenEnv": "X"}]},
            "tokens[0]",
            "exactly one of token, tokenEnv, tokenSha256",
            id="token-with-two-secrets",
        ),
        pytest.param(
            {"providers": [ECHO], "tokens": [{"subject": "a", "providers": ["*"], "tokenSha256": "ABC"}]},
            "tokens[0].tokenSha256",
            "pattern",
            id="token-sha256-not-hex",
        ),
        pytest.param(
            {"providers": [ECHO], "tokens": [{"subject": "a", "providers": ["*"], "token": SECRET, "sessions": ["x"]}]},
            "tokens[0].sessions[0]",
            "'create', 'read', 'continue' or 'delete'",
            id="unknown-grant",
        ),
    ],
)
def test_an_invalid_config_is_a_config_error_whose_problem_starts_with_its_json_path(
    data: dict[str, Any], path: str, fragment: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(data)

    assert len(caught.value.problems) == 1
    problem = caught.value.problems[0]
    assert problem.startswith(f"{path}: "), problem
    assert fragment in problem
    assert problem in str(caught.value)


def test_a_token_naming_an_unknown_provider_is_a_config_error_naming_the_token_path() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(
            {"providers": [ECHO], "tokens": [{"subject": "a", "providers": ["echo", "nope"], "token": SECRET}]}
        )

    assert len(caught.value.problems) == 1
    assert "tokens[0].providers: unknown provider 'nope'" in caught.value.problems[0]


def test_every_problem_in_a_config_is_reported_at_once() -> None:
    # An unknown kind picks no adapter, so that entry's other fields cannot be checked: it is one problem.
    providers = [{"id": "", "kind": "echo"}, {"id": "", "kind": "ecco"}]
    with pytest.raises(ConfigError) as caught:
        parse_config({"providers": providers, "sessions": {"retentionMs": 1, "maxEntries": 0}})

    paths = sorted(problem.split(":")[0] for problem in caught.value.problems)
    # both ids are "", so the second also repeats the first (cross-field checks read the raw document)
    assert paths == ["providers[0].id", "providers[1].id", "providers[1].kind", "sessions.maxEntries"]


def test_a_config_that_is_not_an_object_is_reported_at_the_root() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config([])

    assert caught.value.problems[0].startswith("(root): ")


def test_load_config_reads_and_validates_a_json_file(tmp_path: Path) -> None:
    path = tmp_path / "host.json"
    path.write_text(json.dumps({"hostId": "h1", "providers": [ECHO], "sessions": {"retentionMs": 5}}), "utf-8")

    config = load_config(path)

    assert config.hostId == "h1"
    assert config.sessions is not None and config.sessions.retentionMs == 5


def test_load_config_of_a_missing_file_is_a_config_error(tmp_path: Path) -> None:
    missing = tmp_path / "absent.json"

    with pytest.raises(ConfigError) as caught:
        load_config(missing)

    assert caught.value.problems[0].startswith("(file): cannot read ")
    assert str(missing) in caught.value.problems[0]


def test_load_config_of_a_file_that_is_not_json_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "host.json"
    path.write_text('{"providers": [\n  oops\n]}', "utf-8")

    with pytest.raises(ConfigError) as caught:
        load_config(path)

    assert caught.value.problems[0].startswith("(file): not JSON: ")
    assert "line 2" in caught.value.problems[0]


def test_load_config_of_a_file_that_names_a_member_twice_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "host.json"
    path.write_text('{"providers": [{"kind": "echo", "id": "a", "id": "b"}]}', "utf-8")

    with pytest.raises(ConfigError) as caught:
        load_config(path)

    assert caught.value.problems == ["(file): the member name 'id' appears twice in one object"]


def test_load_config_of_a_file_that_is_not_utf_8_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "host.json"
    path.write_bytes(b'\xff\xfe{"providers": []}')

    with pytest.raises(ConfigError) as caught:
        load_config(path)

    assert caught.value.problems[0].startswith("(file): not JSON: not UTF-8 text")
    assert "byte 0" in caught.value.problems[0]


def test_load_config_reports_an_invalid_file_by_json_path(tmp_path: Path) -> None:
    path = tmp_path / "host.json"
    path.write_text(json.dumps({"providers": [{"id": "echo", "kind": "echo", "models": []}]}), "utf-8")

    with pytest.raises(ConfigError) as caught:
        load_config(path)

    assert caught.value.problems[0].startswith("providers[0].models: ")


def test_embedded_default_serves_two_echo_instances_with_sessions_and_the_given_token(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("AGENTIC_DRIVER_TOKEN", raising=False)

    config, token = embedded_default(SECRET)

    assert token == SECRET
    assert [(p.id, p.accountId) for p in config.providers] == [("echo", "local"), ("echo-unbound", None)]
    assert config.sessions is not None
    assert config.sessions.retentionMs == 24 * 60 * 60 * 1000
    assert len(config.tokens) == 1
    assert config.tokens[0].token == SECRET
    assert config.tokens[0].subject == "local"
    assert config.tokens[0].providers == ["echo", "echo-unbound"]
    assert config.tokens[0].sessions == ["create", "read", "continue", "delete"]


def test_embedded_default_prefers_the_environment_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTIC_DRIVER_TOKEN", "from-the-environment-0123")

    config, token = embedded_default(SECRET)

    assert token == "from-the-environment-0123"
    assert config.tokens[0].token == "from-the-environment-0123"


def test_embedded_default_generates_a_fresh_token_when_none_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AGENTIC_DRIVER_TOKEN", raising=False)

    (_, first), (_, second) = embedded_default(), embedded_default()

    assert len(first) >= 16
    assert first != second


DOCS = Path(__file__).resolve().parents[3] / "docs"


def test_the_providers_page_example_is_a_valid_host_config() -> None:
    page = (DOCS / "providers.md").read_text("utf-8")
    section = page.split("\n## The network adapters", 1)[1]
    example = section.split("```json", 1)[1].split("```", 1)[0]

    config = parse_config(json.loads(example))

    kinds = {p.kind for p in config.providers}
    assert kinds == {"openai-responses", "anthropic", "gemini", "openai-chat", "cli"}
    bases = {p.baseUrl for p in config.providers if p.kind == "openai-chat"}
    assert {"http://127.0.0.1:11434/v1", "http://127.0.0.1:8000/v1"} <= bases


def _refuse_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    repeated = sorted({key for key in keys if keys.count(key) > 1})
    assert not repeated, f"repeated keys {repeated}: json.loads would keep only the last"
    return dict(pairs)


def test_the_host_json_reference_example_is_valid_json_and_a_valid_config() -> None:
    page = (DOCS / "host-config.md").read_text("utf-8")
    section = page.split("## Host JSON reference", 1)[1]
    example = section.split("```json", 1)[1].split("```", 1)[0]

    config = parse_config(json.loads(example, object_pairs_hook=_refuse_repeated_keys))

    assert config.limits.maxConnections == 1000 and config.sessions is not None
    assert set(json.loads(example)) == set(HostConfig.model_fields), "the example uses every block, as it says"


def test_the_host_json_field_tables_have_one_row_per_field_of_each_block() -> None:
    reference = (DOCS / "host-config.md").read_text("utf-8").split("\n## Fields", 1)[1].split("\n## ", 1)[0]
    tables = {
        block.splitlines()[0]: [line.split("|")[1].strip() for line in block.splitlines() if line.startswith("| `")]
        for block in reference.split("\n### ")[1:]
    }

    for heading, fields in tables.items():
        assert len(fields) == len(set(fields)), (heading, sorted(f for f in fields if fields.count(f) > 1))
    assert tables["`(top level)`"] == [f"`{name}`" for name in HostConfig.model_fields]
    assert tables["`limits`"] == [f"`{name}`" for name in LimitsConfig.model_fields]


@pytest.mark.parametrize("bad", ["Web_1", "", "-web", "web-", "a" * 64, "web.1"])
def test_a_host_id_that_is_not_a_dns_label_is_refused_naming_the_field(bad: str) -> None:
    with pytest.raises(ConfigError) as refused:
        parse_config({"hostId": bad, "providers": [ECHO]})

    assert refused.value.problems == [
        f"hostId: {bad!r} is not a DNS label: 1 to 63 lower-case letters, digits and inner hyphens "
        "(it names this host in session and run ids)"
    ]


def test_the_host_id_comes_from_the_flag_then_the_environment_then_host_json() -> None:
    config = parse_config({"hostId": "from-json", "providers": [ECHO]})

    assert with_host_id(config, None, {}).hostId == "from-json"
    assert with_host_id(config, None, {HOST_ID_ENV: "from-env"}).hostId == "from-env"
    assert with_host_id(config, "from-flag", {HOST_ID_ENV: "from-env"}).hostId == "from-flag"
    assert config.hostId == "from-json"  # the loaded config is left as it was


@pytest.mark.parametrize(
    ("flag", "environ", "source"), [("Bad", {}, "--host-id"), (None, {HOST_ID_ENV: "a_b"}, HOST_ID_ENV)]
)
def test_an_overriding_host_id_is_validated_naming_where_it_came_from(
    flag: str | None, environ: dict[str, str], source: str
) -> None:
    config = parse_config({"providers": [ECHO]})

    with pytest.raises(ConfigError, match=f"^invalid host configuration:\n  {source}: '.*' is not a DNS label"):
        with_host_id(config, flag, environ)
