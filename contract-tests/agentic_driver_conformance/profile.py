"""Conformance profiles: what a host under test must expose for each check, and the plan made from its discovery.

A profile (``profiles/*.json``, format ``profiles/profile.schema.json``, reference ``docs/conformance-profile.md``)
names the tokens (by the environment variable that holds each secret), the provider instances, the session bounds
and what discovery cannot show (``declared``: run slots, body limit, host tools, ``/metrics``). Before any check
runs, :func:`make_plan` reads ``/v1/discovery`` as each token and turns every unmet requirement into a skip with
its reason. Nothing is skipped silently: the plan is printed, written to the report, and every skipped check is a
skipped test case in the JUnit report.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypedDict

import httpx
from jsonschema import Draft202012Validator

from . import scenarios
from .resources import PROFILES_DIR, SCHEMATHESIS_CONFIG

DISCOVERY_TIMEOUT_S = 10.0
FULL, READ_ONLY = "full", "read-only"
# Scenario credentials that are no token of the profile: no Authorization header, a token no host knows.
NOT_TOKENS = frozenset({"none", "invalid"})
_RUN_WITHOUT_SESSIONS_NOTE = "a host without sessions (sessions.retentionMs unset)"
NOT_APPLICABLE = "not applicable: "
"""Prefix of a reason that is no lack of the host (a check for another kind of deployment): listed, not a skip."""


class ProfileError(ValueError):
    pass


def load_profile(name_or_path: str | None) -> dict[str, Any]:
    """A shipped profile by name (``default``, ``read-only``) or a profile file, validated against its schema."""
    path = PROFILES_DIR / f"{name_or_path or 'default'}.json"
    if name_or_path and not path.is_file():
        path = Path(name_or_path)
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ProfileError(f"cannot read profile {path}: {error}") from None
    schema = json.loads((PROFILES_DIR / "profile.schema.json").read_text(encoding="utf-8"))
    errors = sorted(Draft202012Validator(schema).iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        details = "; ".join(f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}" for e in errors)
        raise ProfileError(f"profile {path} is invalid: {details}")
    data["_path"] = str(path)
    return data


def default_provider_names() -> frozenset[str]:
    """Provider ids of the shipped default profile: a scenario naming one needs it; other names are meant unknown."""
    return frozenset(json.loads((PROFILES_DIR / "default.json").read_text(encoding="utf-8"))["providers"])


# -- checks and what each needs -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    id: str
    needs: tuple[str, ...]
    summary: str


def _scenario_needs(scenario: scenarios.Scenario, profile: dict[str, Any]) -> tuple[str, ...]:
    data = scenario.data
    text = json.dumps(data["steps"])
    needs = ["mode:full"]
    used_tokens = {data.get("as", "full"), "full", *re.findall(r'"as": "([^"]+)"', text)}
    needs += [f"token:{name}" for name in sorted(used_tokens - NOT_TOKENS)]
    known = default_provider_names() | set(profile["providers"])
    needs += [f"provider:{p}" for p in sorted(set(re.findall(r'"provider": "([^"]+)"', text)) & known)]
    needs.append("host:no-sessions" if scenario.host == "no-sessions" else "sessions")
    if scenario.host == "quotas":
        needs.append("host:quotas")
    if '"metric"' in text:
        needs.append("declared:metrics")
    for tool in sorted({t["name"] for t in profile.get("declared", {}).get("hostTools", [])} | {"lookup"}):
        if f'"{tool}"' in text:
            needs.append(f"declared:hostTool:{tool}")
    if "SESSION_STORE_FULL" in data.get("codes", ()):  # it fills the store
        needs.append("store:small")
    if "RUN_EVENTS_EXPIRED" in data.get("codes", ()):
        needs.append("runs:small-buffer")
    return tuple(needs)


SMALL_EVENT_BUFFER = 65_536
"""The largest limits.maxRunEventBytes at which run-events-expired's run (600 deltas) outgrows its buffer."""


def _small_event_buffer(discovery: dict[str, Any] | None) -> str | None:
    """Why a scenario that makes a run outgrow its event buffer cannot run here, or None when it can."""
    if discovery is None:
        return "discovery did not answer"
    held = discovery.get("runs", {}).get("maxRunEventBytes")
    if isinstance(held, int) and held <= SMALL_EVENT_BUFFER:
        return None
    return (
        f"discovery's runs.maxRunEventBytes is {held}: a run of 600 deltas outgrows only a buffer of at most "
        f"{SMALL_EVENT_BUFFER} bytes (set limits.maxRunEventBytes so)"
    )


def schemathesis_providers() -> tuple[str, ...]:
    """The provider ids the schemathesis configuration generates requests for."""
    config = tomllib.loads(SCHEMATHESIS_CONFIG.read_text(encoding="utf-8"))
    return tuple(config["dictionaries"]["providers"]["values"])


def checks_for(profile: dict[str, Any]) -> list[Check]:
    """Every check of a kit run in this profile's mode, in the order they run."""
    read_only = profile["mode"] == READ_ONLY
    found = [
        Check("spec shipped-copy-valid", (), "the kit's copy of openapi.yaml is a valid OpenAPI document"),
        Check("spec served-document", (), "the host serves the kit's openapi.yaml at /openapi.json and /openapi.yaml"),
        # Needs nothing: a host whose discovery fails (which skips most checks) fails here, by name.
        Check("discovery answer", (), "GET /v1/discovery answers as the spec documents"),
        Check("probe unauthenticated", (), "every bearer operation refuses a missing token with 401 UNAUTHENTICATED"),
        Check("probe invalid-token", (), "every bearer operation refuses an unknown token with 401 UNAUTHENTICATED"),
        Check("probe route-not-found", ("token:full",), "unknown routes answer 404 ROUTE_NOT_FOUND"),
        Check("probe method-not-allowed", ("token:full",), "undocumented methods answer 405 METHOD_NOT_ALLOWED"),
        Check("probe session-not-found", ("token:full",), "reading an unknown session answers SESSION_NOT_FOUND"),
        Check(
            "probe permission-denied",
            ("token:no-grants",),
            "createSession without the create grant answers 403 PERMISSION_DENIED",
        ),
    ]
    if read_only:
        found.append(
            Check("schemathesis read-only-operations", ("token:full",), "examples, coverage, fuzzing on GET operations")
        )
        for scenario in scenarios.all_scenarios():
            found.append(Check(f"scenario {scenario.name}", ("mode:full",), scenario.data["summary"]))
        found.append(Check("schemathesis phases", ("mode:full",), "examples, coverage, fuzzing and stateful phases"))
        return found
    ordered = sorted(scenarios.all_scenarios(), key=lambda s: s.isolated)  # store-full last: it fills the store
    for scenario in ordered:
        found.append(Check(f"scenario {scenario.name}", _scenario_needs(scenario, profile), scenario.data["summary"]))
    needs = ("mode:full", "token:full", "sessions", *(f"provider:{p}" for p in schemathesis_providers()))
    found.append(Check("schemathesis phases", needs, "examples, coverage, fuzzing and stateful phases, every check"))
    return found


# -- the plan -------------------------------------------------------------------------------------------------------


class PlannedCheck(TypedDict):
    """One check of the plan (``Plan.checks``), as the plan file holds it."""

    id: str
    summary: str
    needs: list[str]
    skip: str | None
    """None when the check runs, else every unmet need with its reason, joined."""
    skipReasons: list[str]


@dataclass
class Plan:
    base_url: str
    no_sessions_base_url: str | None
    profile_name: str
    profile_path: str
    mode: str
    strict: bool
    token_env: dict[str, str]
    """Token name -> the environment variable that holds its secret (the secrets themselves are never written)."""
    requirements: dict[str, str | None] = field(default_factory=dict)
    """Requirement -> None when met, else why not."""
    quotas_base_url: str | None = None
    """A host whose ``limits.perSubject`` is small (``host-quotas.json``), for the SUBJECT_QUOTA_EXCEEDED scenario."""
    assumed: list[str] = field(default_factory=list)
    """Declared in the profile, invisible in discovery: the kit relies on them without being able to verify."""
    checks: list[PlannedCheck] = field(default_factory=list)
    discovery_problem: str | None = None
    sessions_enabled: bool | None = None
    host_id: str | None = None
    """The ``hostId`` discovery answered with: behind a proxy, one of several hosts, each with its own id (the kit
    compares it with nothing; one-process scenarios are played on this host, by ``Agentic-Host``)."""

    def skip_reason(self, check_id: str) -> str | None:
        for check in self.checks:
            if check["id"] == check_id:
                return check["skip"]
        raise KeyError(f"the plan has no check {check_id!r}")

    def token(self, name: str) -> str:
        return os.environ.get(self.token_env.get(name, ""), "")

    def tokens(self) -> dict[str, str]:
        return {name: self.token(name) for name in self.token_env if self.token(name)}

    def skipped(self) -> dict[str, str]:
        """Checks skipped because the host or the profile lacks something (``--strict`` fails on any)."""
        return {check["id"]: check["skip"] for check in self.checks if check["skip"] and not _not_applicable(check)}

    def not_applicable(self) -> dict[str, str]:
        """Checks for another kind of deployment (a host without sessions): listed, not counted as skips."""
        return {check["id"]: check["skip"] for check in self.checks if check["skip"] and _not_applicable(check)}

    def summary(self) -> dict[str, Any]:
        return {
            "profile": self.profile_name,
            "profilePath": self.profile_path,
            "mode": self.mode,
            "strict": self.strict,
            "hostId": self.host_id,
            "checks": [check["id"] for check in self.checks],
            "skipped": self.skipped(),
            "notApplicable": self.not_applicable(),
            "requirements": self.requirements,
            "assumed": self.assumed,
            "tokenEnvironment": self.token_env,
        }

    def write(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(asdict(self), indent=2) + "\n", encoding="utf-8")

    @classmethod
    def read(cls, path: Path) -> Plan:
        return cls(**json.loads(path.read_text(encoding="utf-8")))


def _not_applicable(check: PlannedCheck) -> bool:
    return all(reason.split(": ", 1)[1].startswith(NOT_APPLICABLE) for reason in check["skipReasons"])


def _discovery(http: httpx.Client, base_url: str, secret: str) -> tuple[dict[str, Any] | None, str | None]:
    try:
        response = http.get(f"{base_url}/v1/discovery", headers={"Authorization": f"Bearer {secret}"})
    except httpx.HTTPError as error:
        return None, f"GET {base_url}/v1/discovery failed: {error}"
    if response.status_code != 200:
        return None, f"GET /v1/discovery answered {response.status_code}: {response.text[:200]}"
    try:
        body = response.json()
    except ValueError:
        return None, "GET /v1/discovery did not answer JSON"
    return (body, None) if isinstance(body, dict) else (None, "GET /v1/discovery did not answer an object")


def _compare(expected: dict[str, Any], actual: dict[str, Any], where: str) -> list[str]:
    problems = []
    for key, wanted in expected.items():
        if key == "declared":
            continue
        got = actual.get(key)
        if isinstance(wanted, dict) and isinstance(got, dict):
            problems += _compare(wanted, got, f"{where}.{key}")
        elif isinstance(wanted, list) and isinstance(got, list) and key != "sessionGrants":
            missing = [item for item in wanted if item not in got]
            if missing:
                problems.append(f"{where}.{key} lacks {missing} (has {got})")
        elif got != wanted and not (key == "sessionGrants" and sorted(got or []) == sorted(wanted)):
            problems.append(f"{where}.{key} is {got!r}, the profile needs {wanted!r}")
    return problems


def _token_requirement(profile: dict[str, Any], name: str, found: dict[str, Any] | None, why: str | None) -> str | None:
    spec = profile["tokens"][name]
    if not os.environ.get(spec["env"]):
        return f"environment variable {spec['env']} (token {name}) is not set"
    if found is None:
        return why
    wanted = {key: spec[key] for key in ("subject", "sessionGrants") if key in spec}
    problems = _compare(wanted, found, "discovery")
    visible = {p.get("id") for p in found.get("providers", []) if isinstance(p, dict)}
    allowed = spec.get("providers")
    # "*": whatever the host has (each provider is a requirement of its own); a list: each must be visible.
    if isinstance(allowed, list):
        problems += [f"provider {p} is not visible to token {name}" for p in allowed if p not in visible]
    return "; ".join(problems) or None


def make_plan(
    profile: dict[str, Any],
    base_url: str,
    *,
    no_sessions_base_url: str | None = None,
    quotas_base_url: str | None = None,
    strict: bool = False,
    read_only: bool = False,
) -> Plan:
    """Read discovery as every token and decide, for every check, whether it runs or why it is skipped."""
    mode = READ_ONLY if read_only else profile["mode"]
    profile = {**profile, "mode": mode}
    plan = Plan(
        base_url=base_url,
        no_sessions_base_url=no_sessions_base_url,
        quotas_base_url=quotas_base_url,
        profile_name=profile["name"],
        profile_path=profile["_path"],
        mode=mode,
        strict=strict,
        token_env={name: spec["env"] for name, spec in profile["tokens"].items()},
    )
    met: dict[str, str | None] = {"mode:full": None if mode == FULL else "the read-only profile makes no model calls"}
    full_discovery: dict[str, Any] | None = None
    unavailable = "token full is unavailable"
    with httpx.Client(trust_env=False, timeout=DISCOVERY_TIMEOUT_S) as http:
        for name, spec in profile["tokens"].items():
            secret = os.environ.get(spec["env"], "")
            found, why = _discovery(http, base_url, secret) if secret else (None, None)
            if name == "full":
                full_discovery, plan.discovery_problem = found, why
            met[f"token:{name}"] = _token_requirement(profile, name, found, why)
        for name in ("no-grants", "other"):
            met.setdefault(f"token:{name}", f"the profile names no token {name!r}")
        if full_discovery is None and plan.discovery_problem:
            unavailable = plan.discovery_problem
        # Keyed by the id each provider of the discovery answer has (the host's JSON: not necessarily a string).
        providers: dict[Any, dict[str, Any]] = {
            p.get("id"): p for p in (full_discovery or {}).get("providers", []) if isinstance(p, dict)
        }
        for provider in default_provider_names() | set(profile["providers"]):
            if provider not in profile["providers"]:
                met[f"provider:{provider}"] = f"the profile declares no provider {provider}"
            elif full_discovery is None:
                met[f"provider:{provider}"] = unavailable
            elif provider not in providers:
                met[f"provider:{provider}"] = (
                    f"the host has no provider instance {provider!r} (discovery lists {sorted(providers)})"
                )
            else:
                problems = _compare(profile["providers"][provider], providers[provider], f"providers[{provider}]")
                met[f"provider:{provider}"] = "; ".join(problems) or None
        host_id = (full_discovery or {}).get("hostId")
        plan.host_id = host_id if isinstance(host_id, str) else None
        sessions = (full_discovery or {}).get("sessions", {})
        plan.sessions_enabled = sessions.get("enabled") if full_discovery is not None else None
        if full_discovery is None:
            met["sessions"] = unavailable
        else:
            wanted = profile["sessions"] or {"enabled": True}
            met["sessions"] = "; ".join(_compare(wanted, sessions, "sessions")) or None
        cap = profile.get("safety", {}).get("maxStoreEntries", 64)
        entries = sessions.get("maxEntries")
        met["store:small"] = (
            None
            if isinstance(entries, int) and entries <= cap
            else f"sessions.maxEntries is {entries}: filling the store would take more than the profile's "
            f"safety.maxStoreEntries ({cap}) sessions"
        )
        met["runs:small-buffer"] = _small_event_buffer(full_discovery)
        met["host:no-sessions"] = _no_sessions_host(http, plan, profile)
        met["host:quotas"] = (
            None
            if plan.quotas_base_url is not None
            else f"{NOT_APPLICABLE}these checks need a host whose limits.perSubject is small "
            "(contract-tests/host-quotas.json): give one with --quotas-base-url"
        )
        declared = profile.get("declared", {})
        met["declared:metrics"] = _metrics_requirement(http, base_url, declared)
        tools = {tool["name"] for tool in declared.get("hostTools", [])}
        for tool in tools | {"lookup"}:
            met[f"declared:hostTool:{tool}"] = None if tool in tools else f"the profile declares no host tool {tool}"
    plan.requirements = dict(sorted(met.items()))
    plan.assumed = _assumed(profile)
    for check in checks_for(profile):
        reasons = [f"{need}: {met[need]}" for need in check.needs if met.get(need)]
        plan.checks.append(
            {
                "id": check.id,
                "summary": check.summary,
                "needs": list(check.needs),
                "skip": "; ".join(reasons) or None,
                "skipReasons": reasons,
            }
        )
    return plan


def _no_sessions_host(http: httpx.Client, plan: Plan, profile: dict[str, Any]) -> str | None:
    if plan.no_sessions_base_url is None:
        if plan.sessions_enabled is False:
            plan.no_sessions_base_url = plan.base_url
            return None
        return (
            f"{NOT_APPLICABLE}this host has sessions; these checks need {_RUN_WITHOUT_SESSIONS_NOTE}: "
            "give one with --no-sessions-base-url"
        )
    secret = os.environ.get(profile["tokens"]["full"]["env"], "")
    found, why = _discovery(http, plan.no_sessions_base_url, secret)
    if found is None:
        return why
    return None if found.get("sessions", {}).get("enabled") is False else "the --no-sessions-base-url host has sessions"


def _metrics_requirement(http: httpx.Client, base_url: str, declared: dict[str, Any]) -> str | None:
    if not declared.get("metrics"):
        return "the profile does not declare that the host serves GET /metrics"
    try:
        response = http.get(f"{base_url}/metrics")
    except httpx.HTTPError as error:
        return f"GET /metrics failed: {error}"
    return None if response.status_code == 200 else f"GET /metrics answered {response.status_code}"


def _assumed(profile: dict[str, Any]) -> list[str]:
    declared = profile.get("declared", {})
    found = [f"limits.{key} = {value}" for key, value in sorted(declared.get("limits", {}).items())]
    found += [
        f"host tool {tool['name']} (approval {tool.get('approval', 'none')})" for tool in declared.get("hostTools", [])
    ]
    if declared.get("metrics"):
        found.append("GET /metrics counts agentic_driver_provider_calls_total per provider")
    for provider, spec in sorted(profile["providers"].items()):
        for key, value in sorted(spec.get("declared", {}).get("settings", {}).items()):
            found.append(f"provider {provider}: settings.{key} = {json.dumps(value)}")
    return found
