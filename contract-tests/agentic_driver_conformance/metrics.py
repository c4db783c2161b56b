"""The metrics report (the kit's ``--report``, ``make contract``'s reports/contract-metrics.json) and its summary.

Inputs (:class:`Inputs`): ``schemathesis-observations.json`` (st_hooks.py's handler), ``observations.jsonl``
files (every scenario and probe response, and the scenario-side check counts), JUnit files (pytest's), the kit's
plan (what ran, what was skipped and why), plus what the caller measured itself (stages, run time).

:func:`build` computes the figures; the caller chooses the bars. The kit's own bars (:func:`kit_bars`) are about
this host: zero failures and, with ``--strict``, nothing skipped. ``make contract`` adds the repository's
coverage bars (:func:`coverage_bars`: every operation, status and code reached, the named scenarios, broken hosts
caught, determinism, time).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
import xml.etree.ElementTree as ElementTree
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from . import observations, spec
from .resources import PACKAGE_DIR, SCHEMATHESIS_CONFIG, SPEC_PATH

TIME_BUDGET_S = 180.0

# Codes no request to a healthy host can produce, with why. Exercised anyway where the suite can provoke them
# (INTERNAL_ERROR on a host with an injected defect), and then not counted as unreachable.
UNREACHABLE_WITH_REASON: dict[str, str] = {
    "REQUEST_TIMEOUT": (
        "needs a client that stops sending its body mid-way for limits.bodyTimeoutMs; the slow-body tests in "
        "server/tests/reliability reach it on a real socket"
    ),
    "HEADERS_TOO_LARGE": (
        "answers a request head over limits.maxHeaderBytes before any operation is known; server/tests/reliability "
        "reaches it with raw sockets"
    ),
    "SHUTTING_DOWN": (
        "needs the host to receive SIGTERM mid-suite; the shutdown tests in server/tests/reliability drain real host "
        "processes and observe it"
    ),
    "HOST_UNAVAILABLE": (
        "answered by a proxy in front of several hosts, never by a host; server/tests/cluster kills a host behind the "
        "generated HAProxy and nginx configurations and observes it"
    ),
}

# Documented statuses no request to the contract host can produce, with why (its only provider is the offline echo
# provider). Listed in the metrics; not counted as missing.
UNREACHABLE_STATUSES: dict[str, str] = {
    "getReadiness 503": (
        "SHUTTING_DOWN: only while the host drains after SIGTERM; server/tests/unit/test_http_owner.py and the drain "
        "test in server/tests/cluster observe it"
    ),
    "createSession 408": (
        "REQUEST_TIMEOUT: a body that stops arriving (limits.bodyTimeoutMs); no client sends one, the slow-body tests "
        "in server/tests/reliability do"
    ),
    "run 408": (
        "REQUEST_TIMEOUT: a body that stops arriving (limits.bodyTimeoutMs); no client sends one, the slow-body tests "
        "in server/tests/reliability do"
    ),
    "streamRun 408": (
        "REQUEST_TIMEOUT: a body that stops arriving (limits.bodyTimeoutMs); no client sends one, the slow-body tests "
        "in server/tests/reliability do"
    ),
    "submitRunActions 408": (
        "REQUEST_TIMEOUT: a body that stops arriving (limits.bodyTimeoutMs); no client sends one, the slow-body tests "
        "in server/tests/reliability do"
    ),
    "streamRunActions 408": (
        "REQUEST_TIMEOUT: a body that stops arriving (limits.bodyTimeoutMs); no client sends one, the slow-body tests "
        "in server/tests/reliability do"
    ),
    "truncateSession 408": (
        "REQUEST_TIMEOUT: a body that stops arriving (limits.bodyTimeoutMs); no client sends one, the slow-body tests "
        "in server/tests/reliability do"
    ),
    "truncateSession 413": (
        "PAYLOAD_TOO_LARGE: a truncate body holds two integers, so no body a client builds from the schema exceeds "
        "limits.maxBodyBytes (the host still enforces the limit on every body, as the unit tests of http/body show)"
    ),
    "forkSession 408": (
        "REQUEST_TIMEOUT: a body that stops arriving (limits.bodyTimeoutMs); no client sends one, the slow-body tests "
        "in server/tests/reliability do"
    ),
    "forkSession 413": (
        "PAYLOAD_TOO_LARGE: a fork body holds at most one integer, so no body a client builds from the schema exceeds "
        "limits.maxBodyBytes (the host still enforces the limit on every body, as the unit tests of http/body show)"
    ),
    "submitRunActions 504": (
        "PROVIDER_TIMEOUT while a run continues: echo's !sleep delays the call that asks for the action exactly as "
        "long as the continuation, so a run that reached requires_action under idleTimeoutMs never stalls after it"
    ),
}

# Links whose source answer the stateful phase cannot produce, by source operation, with why.
LINK_SOURCES_OUT_OF_STATEFUL_REACH: dict[str, str] = {
    "POST /v1/runs/{runId}/actions": (
        "submitRunActions answers 200 only for a run that waits for an action, and a generated run never waits: "
        "that takes a `!call` directive naming a function the run declares (scenarios functions and approvals)"
    ),
    "POST /v1/runs/{runId}/cancel": (
        "cancelRun answers 200 only for a run in flight; stateful steps run one at a time and runs are synchronous, "
        "so no run is ever in flight there (scenarios session-interrupted and run-slots cancel runs and read after)"
    ),
}


@dataclass
class StageResult:
    name: str
    passed: bool
    seconds: float
    detail: str = ""


@dataclass
class Inputs:
    """Where the figures come from."""

    schemathesis: list[Path] = field(default_factory=list)
    observations: list[Path] = field(default_factory=list)
    junit: list[Path] = field(default_factory=list)
    plan: dict[str, Any] | None = None
    fingerprint_files: list[Path] = field(default_factory=list)
    """Besides the spec, the schemathesis config and the kit's code: what else decides the request sequence."""


def inputs_fingerprint(extra: list[Path]) -> str:
    """What decides the generated request sequence: spec, configuration, hooks, extra files, tool versions."""
    digest = hashlib.sha256()
    files = [SPEC_PATH, SCHEMATHESIS_CONFIG, *sorted(PACKAGE_DIR.glob("*.py")), *extra]
    for path in files:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    for package in ("schemathesis", "hypothesis", "hypothesis-jsonschema"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            digest.update(f"{package}=={metadata.version(package)}".encode())
    return digest.hexdigest()


def _junit(paths: list[Path]) -> dict[str, Any]:
    present = [path for path in paths if path.exists()]
    if not present:
        return {
            "tests": 0,
            "passed": 0,
            "failed": 0,
            "errors": 0,
            "skipped": 0,
            "failedTests": [],
            "skippedTests": {},
            "failures": {},
            "present": False,
        }
    cases = [case for path in present for case in ElementTree.parse(path).getroot().iter("testcase")]
    failed = [c for c in cases if c.find("failure") is not None]
    errored = [c for c in cases if c.find("error") is not None]
    skipped = [c for c in cases if c.find("skipped") is not None]
    passed = {f"{c.get('classname')}.{c.get('name')}" for c in cases} - {
        f"{c.get('classname')}.{c.get('name')}" for c in [*failed, *errored, *skipped]
    }
    return {
        "present": True,
        "tests": len(cases),
        "passed": len(cases) - len(failed) - len(errored) - len(skipped),
        "failed": len(failed),
        "errors": len(errored),
        "skipped": len(skipped),
        "failedTests": sorted(f"{c.get('classname')}.{c.get('name')}" for c in [*failed, *errored]),
        "skippedTests": {f"{c.get('classname')}.{c.get('name')}": _message(c.find("skipped")) for c in skipped},
        "failures": {
            f"{c.get('classname')}.{c.get('name')}": _message(
                c.find("failure") if c.find("failure") is not None else c.find("error")
            )
            for c in [*failed, *errored]
        },
        "passedTests": sorted(passed),
    }


def _message(element: ElementTree.Element | None) -> str:
    if element is None:
        return ""
    message = element.get("message") or (element.text or "")
    # pytest's messages start with the exception type; the check's own words follow it.
    for prefix in ("Skipped: ", "AssertionError: ", "agentic_driver_conformance.scenarios.ScenarioFailure: "):
        message = message.removeprefix(prefix)
    return message.strip()


def _passed(junit: dict[str, Any], fragment: str) -> bool:
    names = junit.get("passedTests", [])
    return any(fragment in name for name in names) and not any(fragment in name for name in junit["failedTests"])


def _schemathesis(paths: list[Path]) -> dict[str, Any]:
    present = [path for path in paths if path.exists()]
    return json.loads(present[0].read_text()) if present else {}


def build(
    *,
    run_seconds: float,
    stages: list[StageResult],
    previous: dict[str, Any] | None,
    inputs: Inputs,
    kit_cpu_seconds: float | None = None,
) -> dict[str, Any]:
    st = _schemathesis(inputs.schemathesis)
    tally = _tally(st, [line for path in inputs.observations for line in observations.read(path)])
    junit = _junit(inputs.junit)
    operations, statuses = _operations_and_statuses(tally.statuses)
    error_codes = _error_codes(tally.codes)
    checks = _checks(st, tally.scenario_checks)
    links = _links(st)
    determinism = _determinism(st, previous, inputs.fingerprint_files)
    failures = _schemathesis_failures(st)
    zero_failures = _zero_failures(stages, junit, failures, checks["failed"])
    return {
        "generatedAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "contract": {"title": spec.document()["info"]["title"], "version": spec.document()["info"]["version"]},
        "passed": zero_failures["met"],
        "runTimeSeconds": round(run_seconds, 1),
        "kitCpuSeconds": None if kit_cpu_seconds is None else round(kit_cpu_seconds, 1),
        "plan": inputs.plan,
        "stages": [
            {"name": s.name, "passed": s.passed, "seconds": round(s.seconds, 1), "detail": s.detail} for s in stages
        ],
        "operations": operations,
        "statuses": statuses,
        "links": links,
        "errorCodes": error_codes,
        "checks": checks,
        "testCases": _test_cases(st, tally.scenario_requests, junit),
        "determinism": determinism,
        "schemathesisFailures": failures,
        "schemathesisErrors": st.get("errors", []),
        "bars": [zero_failures],
    }


@dataclass(frozen=True)
class _Tally:
    """What the inputs observed: each operation's statuses and each code, counted by source (schemathesis,
    scenarios, probes, ...), the scenarios' requests, and the scenario-side check outcomes."""

    statuses: dict[str, dict[str, Counter[str]]]
    codes: dict[str, Counter[str]]
    scenario_requests: int
    scenario_checks: Counter[tuple[str, str]]


def _tally(st: dict[str, Any], lines: list[dict[str, Any]]) -> _Tally:
    # statuses and codes per operation, by source
    observed: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    codes: dict[str, Counter[str]] = defaultdict(Counter)
    for operation_id, counts in st.get("statuses", {}).items():
        for status, count in counts.items():
            observed[operation_id][status]["schemathesis"] += count
    for counts in st.get("codes", {}).values():
        for key, count in counts.items():
            codes[key.split(" ", 1)[1]]["schemathesis"] += count
    scenario_requests = 0
    scenario_checks: Counter[tuple[str, str]] = Counter()
    for line in lines:
        if line["kind"] == "response":
            source = "scenarios" if line["source"].startswith("scenario:") else line["source"]
            if source == "scenarios":
                scenario_requests += 1
            observed[line["operation"]][str(line["status"])][source] += 1
            if line.get("code"):
                codes[line["code"]][source] += 1
        elif line["kind"] == "checks":
            scenario_checks[(line["check"], line["outcome"])] += line["count"]
    return _Tally(observed, codes, scenario_requests, scenario_checks)


def _operations_and_statuses(
    observed: dict[str, dict[str, Counter[str]]],
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The report's ``operations`` (which were tested, each one's statuses) and ``statuses`` (the totals)."""
    per_operation: dict[str, dict[str, Any]] = {}
    missing_statuses = []
    documented_total = observed_total = 0
    for operation_id, operation in spec.operations().items():
        seen = observed.get(operation_id, {})
        documented = list(operation.statuses)
        missing = [s for s in documented if s not in seen and f"{operation_id} {s}" not in UNREACHABLE_STATUSES]
        documented_total += len(documented)
        observed_total += sum(status in seen for status in documented)
        missing_statuses += [f"{operation_id} {status}" for status in missing]
        per_operation[operation_id] = {
            "label": operation.label,
            "tested": bool(seen),
            "documentedStatuses": documented,
            "observed": {status: dict(seen[status]) for status in sorted(seen) if status in documented},
            "missingStatuses": missing,
            "observedOutsideTheContract": {
                status: dict(seen[status]) for status in sorted(seen) if status not in documented
            },
        }
    outside = {status: dict(counts) for status, counts in sorted(observed.get("(outside operations)", {}).items())}
    operations: dict[str, Any] = {
        "total": len(per_operation),
        "covered": sum(entry["tested"] for entry in per_operation.values()),
        "byOperation": per_operation,
    }
    statuses: dict[str, Any] = {
        "documented": documented_total,
        "observed": observed_total,
        "missing": missing_statuses,
        "unreachable": UNREACHABLE_STATUSES,
        "outsideOperations": outside,
    }
    return operations, statuses


def _error_codes(codes: dict[str, Counter[str]]) -> dict[str, Any]:
    catalogue = spec.catalogue()
    return {
        "catalogue": len(catalogue),
        "exercised": sum(code in codes for code in catalogue),
        "missing": [code for code in catalogue if code not in codes and code not in UNREACHABLE_WITH_REASON],
        "unreachable": UNREACHABLE_WITH_REASON,
        "byCode": {code: dict(codes.get(code, {})) for code in catalogue},
    }


def _checks(st: dict[str, Any], scenario_checks: Counter[tuple[str, str]]) -> dict[str, Any]:
    """Check outcomes by check and source: every outcome but ``passed`` counts as failed."""
    checks: dict[str, dict[str, dict[str, int]]] = defaultdict(dict)
    passed_checks = failed_checks = 0
    for name, outcomes in st.get("checks", {}).items():
        checks[name]["schemathesis"] = outcomes
        passed_checks += outcomes.get("passed", 0)
        failed_checks += sum(count for outcome, count in outcomes.items() if outcome != "passed")
    for (name, outcome), count in sorted(scenario_checks.items()):
        checks[name].setdefault("scenarios", {})[outcome] = count
        if outcome == "passed":
            passed_checks += count
        else:
            failed_checks += count
    return {"passed": passed_checks, "failed": failed_checks, "byCheck": dict(sorted(checks.items()))}


def _links(st: dict[str, Any]) -> dict[str, Any]:
    """The stateful links schemathesis knew and covered, those of the spec among them, and why the rest were not."""
    links = st.get("links", {})
    all_links, covered_links = links.get("all", []), links.get("covered", [])
    spec_link_names = {link.name for link in spec.links()}
    return {
        "total": len(all_links),
        "covered": len(covered_links),
        "spec": {
            "total": sum(_link_name(link) in spec_link_names for link in all_links),
            "covered": sum(_link_name(link) in spec_link_names for link in covered_links),
        },
        "all": all_links,
        "coveredLinks": covered_links,
        "uncovered": {link: _why_uncovered(link) for link in sorted(set(all_links) - set(covered_links))},
        "staleReplays": links.get("staleReplays", {}),
    }


def _why_uncovered(link: str) -> str:
    reasons = (why for source, why in LINK_SOURCES_OUT_OF_STATEFUL_REACH.items() if link.startswith(source + " "))
    return next(reasons, "not reached in this run")


def _determinism(st: dict[str, Any], previous: dict[str, Any] | None, fingerprint_files: list[Path]) -> dict[str, Any]:
    """This run's request sequence and inputs, and whether the sequence matches the previous run's."""
    sequence = st.get("requestSequenceSha256")
    fingerprint = inputs_fingerprint(fingerprint_files)
    determinism: dict[str, Any] = {"requestSequenceSha256": sequence, "inputsSha256": fingerprint}
    if previous is None:
        determinism["comparedWithPreviousRun"] = "no previous run"
    elif previous.get("determinism", {}).get("inputsSha256") != fingerprint:
        determinism["comparedWithPreviousRun"] = "not comparable (spec, configuration, host or tools changed)"
    else:
        same = previous["determinism"].get("requestSequenceSha256") == sequence
        determinism["comparedWithPreviousRun"] = "identical" if same else "DIFFERENT"
    return determinism


def _test_cases(st: dict[str, Any], scenario_requests: int, junit: dict[str, Any]) -> dict[str, Any]:
    cases_by_phase = st.get("casesByPhase", {})
    return {
        "schemathesisGenerated": sum(cases_by_phase.values()),
        "schemathesisByPhase": cases_by_phase,
        "schemathesisRequests": st.get("requests", 0),
        "scenarioRequests": scenario_requests,
        "pytest": junit,
    }


def _schemathesis_failures(st: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {k: failure[k] for k in ("check", "operation", "phase", "title", "message", "reproduce")}
        for failure in st.get("failures", [])
    ]


def _zero_failures(
    stages: list[StageResult], junit: dict[str, Any], failures: list[dict[str, Any]], failed_checks: int
) -> dict[str, Any]:
    """The bar every run has: no stage, test, schemathesis check or scenario check failed, and JUnit was written."""
    failed_stages = [stage.name for stage in stages if not stage.passed]
    return _bar(
        "zero failures",
        not failed_stages
        and junit["failed"] + junit["errors"] == 0
        and junit["present"]
        and not failures
        and failed_checks == 0,
        f"failed stages: {failed_stages or 'none'}; failed tests: {junit['failedTests'] or 'none'}; "
        f"schemathesis failures: {len(failures)}; failed checks: {failed_checks}",
    )


def with_bars(document: dict[str, Any], bars: list[dict[str, Any]]) -> dict[str, Any]:
    """The document with more bars; it passes only if every bar is met."""
    document["bars"] = [*document["bars"], *bars]
    document["passed"] = all(bar["met"] for bar in document["bars"])
    return document


def kit_bars(document: dict[str, Any], *, strict: bool) -> list[dict[str, Any]]:
    """The kit's own bar beyond zero failures: with --strict, nothing may be skipped."""
    skipped = (document.get("plan") or {}).get("skipped", {})
    if not strict:
        return []
    return [_bar("nothing skipped (--strict)", not skipped, f"{len(skipped)} skipped: {sorted(skipped) or 'none'}")]


def coverage_bars(document: dict[str, Any], *, mutation_tests: list[str]) -> list[dict[str, Any]]:
    """make contract's bars: what the repository's own run must reach on the reference host."""
    junit = document["testCases"]["pytest"]
    per_operation = document["operations"]["byOperation"]
    statuses, codes, det = document["statuses"], document["errorCodes"], document["determinism"]
    sequence = det["requestSequenceSha256"]
    named = ("session-revision-conflict", "session-busy", "session-interrupted", "session-account-required")
    return [
        _bar(
            "every operation tested",
            all(entry["tested"] for entry in per_operation.values()),
            f"{sum(entry['tested'] for entry in per_operation.values())}/{len(per_operation)}",
        ),
        _bar(
            "every documented status observed",
            not statuses["missing"],
            f"{statuses['observed']}/{statuses['documented'] - len(UNREACHABLE_STATUSES)} reachable observed; "
            f"missing: {statuses['missing'] or 'none'}",
        ),
        _bar(
            "every catalogue code exercised",
            not codes["missing"],
            f"{codes['exercised']}/{codes['catalogue']}; missing: {codes['missing'] or 'none'}",
        ),
        _bar(
            "the four named codes end to end",
            all(_passed(junit, f"test_scenario[{name}]") for name in named),
            "scenarios " + ", ".join(named),
        ),
        _bar("race x20", _passed(junit, "test_scenario[session-race]"), "scenario session-race (repeat 20)"),
        _bar(
            "broken hosts are caught",
            all(_passed(junit, name) for name in mutation_tests),
            "tests/test_mutations.py",
        ),
        _bar(
            "identical request sequence on a repeated run",
            det["comparedWithPreviousRun"] != "DIFFERENT",
            f"{det['comparedWithPreviousRun']} ({(sequence or '?')[:16]})",
        ),
        _time_bar(document),
    ]


def _time_bar(document: dict[str, Any]) -> dict[str, Any]:
    """Under three minutes: of the kit's CPU when the run measured it, else of the wall clock.

    The CPU time is the work; the wall clock of the same work went from 142 s at load 7 to 292 s at load 13 on this
    machine, and `make test` runs its stages in two lanes at once.
    """
    wall, cpu = document["runTimeSeconds"], document.get("kitCpuSeconds")
    if cpu is None:
        return _bar("under 3 minutes", wall < TIME_BUDGET_S, f"{wall} s")
    return _bar("under 3 minutes", cpu < TIME_BUDGET_S, f"{cpu} s of the kit's CPU ({wall} s wall)")


def _out_of_reach(links: dict[str, Any]) -> int:
    return sum(why != "not reached in this run" for why in links["uncovered"].values())


def _link_name(label: str) -> str:
    return label.split("] ", 1)[1].split(" -> ", 1)[0] if "] " in label else label


def _bar(name: str, met: bool, detail: str) -> dict[str, Any]:
    return {"bar": name, "met": bool(met), "detail": detail}


def write(document: dict[str, Any], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return path


def summary(document: dict[str, Any], *, title: str, report: Path, artifacts: Path, details: bool = True) -> str:
    """One screen. ``details``: name every missing status and code (``make contract``: those are its bars)."""
    ops, statuses, links, codes = (
        document["operations"],
        document["statuses"],
        document["links"],
        document["errorCodes"],
    )
    checks, cases, det = document["checks"], document["testCases"], document["determinism"]
    pytest_counts = cases["pytest"]
    phases = ", ".join(f"{name} {count}" for name, count in cases["schemathesisByPhase"].items())
    stages = "  ".join(f"{s['name']} {'ok' if s['passed'] else 'FAILED'} {s['seconds']}s" for s in document["stages"])
    verdict = "PASS" if document["passed"] else "FAIL"
    injected = [code for code, sources in codes["byCode"].items() if set(sources) == {"fault-injection"}]
    lines = [
        f"{title}: {document['contract']['title']} {document['contract']['version']}  ->  {verdict}",
        f"  stages        {stages}",
        f"  operations    {ops['covered']}/{ops['total']} tested",
        f"  statuses      {statuses['observed']}/{statuses['documented']} documented statuses observed"
        + (f" ({len(statuses['unreachable'])} unreachable with echo)" if statuses["unreachable"] else "")
        + (f"; missing {', '.join(statuses['missing'])}" if statuses["missing"] and details else ""),
        f"  error codes   {codes['exercised']}/{codes['catalogue']} catalogue codes exercised"
        + (f" ({', '.join(injected)} only on a fault-injected host)" if injected else "")
        + (f"; missing {', '.join(codes['missing'])}" if codes["missing"] and details else ""),
        f"  links         {links['covered']}/{links['total']} stateful links covered (spec links "
        f"{links['spec']['covered']}/{links['spec']['total']}; {_out_of_reach(links)} out of stateful reach); "
        f"stale replays {links['staleReplays']}",
        f"  checks        {checks['passed']} passed, {checks['failed']} failed",
        f"  test cases    {cases['schemathesisGenerated']} generated by schemathesis ({phases}); "
        f"{cases['scenarioRequests']} scenario requests",
        f"  pytest        {pytest_counts['passed']} passed, {pytest_counts['failed'] + pytest_counts['errors']} failed"
        + (f", {pytest_counts['skipped']} skipped" if pytest_counts["skipped"] else ""),
        f"  determinism   request sequence {(det['requestSequenceSha256'] or '?')[:16]}: "
        f"{det['comparedWithPreviousRun']}",
        f"  run time      {document['runTimeSeconds']} s",
        "  bars",
    ]
    lines += [f"    [{'x' if bar['met'] else ' '}] {bar['bar']}: {bar['detail']}" for bar in document["bars"]]
    lines += _plan_lines(document.get("plan"))
    for name, message in list(pytest_counts["failures"].items())[:8]:
        lines.append(f"  FAILED {check_name(name)}: {_first_line(message)}")
    for failure in document["schemathesisFailures"][:5]:
        lines.append(
            f"  schemathesis failure: {failure['check']} on {failure['operation']} ({failure['phase']}) "
            f"{failure['title']}"
        )
    if document["schemathesisFailures"]:
        lines.append(f"    full reports: {artifacts / 'schemathesis.txt'}")
    lines.append(f"  report        {report}")
    return "\n".join(lines)


def check_name(test: str) -> str:
    """A JUnit test name as the kit names the check: ``...test_scenario[session-busy]`` is ``scenario session-busy``."""
    name = test.rsplit(".", 1)[-1]
    if "[" in name:
        function, _, parameter = name.partition("[")
        return f"{function.removeprefix('test_').replace('_', ' ')} {parameter.rstrip(']')}"
    return name.removeprefix("test_").replace("_", " ")


def _first_line(message: str) -> str:
    return (message.strip().splitlines() or [""])[0][:200]


def _plan_lines(plan: dict[str, Any] | None) -> list[str]:
    if not plan:
        return []
    skipped = plan.get("skipped", {})
    lines = [
        f"  profile       {plan['profile']} ({plan['mode']}); {len(plan['checks']) - len(skipped)} checks planned, "
        f"{len(skipped)} skipped" + (" (--strict: every skip fails the run)" if plan.get("strict") else "")
    ]
    lines += [f"    skipped {check}: {reason}" for check, reason in skipped.items()]
    lines += [f"    not applicable {check}: {reason}" for check, reason in plan.get("notApplicable", {}).items()]
    if plan.get("assumed"):
        lines.append(f"  assumed       (not visible in discovery) {'; '.join(plan['assumed'])}")
    return lines
