"""From a recorded workload to per-session model histories, verdicts and the global accounting checks."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .harness import FUNCTION_OUTPUT, OP_TAG, OpRecord, Workload
from .linearizability import CheckResult, Operation, check
from .session_model import (
    COMMIT,
    DELETED,
    INTERRUPT,
    RELEASE,
    Admit,
    Delete,
    Finish,
    Observe,
    Read,
    Refuse,
    SessionModel,
)

__all__ = ["Analysis", "analyse"]

INF = math.inf


def _tag(text: str) -> int:
    match = OP_TAG.search(text)
    assert match is not None, f"no op tag in {text!r}"
    return int(match.group(1))


def echo_reply(text: str) -> str:
    """What the echo provider answers to ``text`` (its reply without directive lines, and the answered
    function's output after a ``!call``)."""
    lines = text.split("\n")
    called = lines[0].startswith("!call lookup")
    while lines and lines[0].startswith("!"):
        lines.pop(0)
    return "echo: " + "\n".join(lines) + (f" | lookup -> {FUNCTION_OUTPUT}" if called else "")


@dataclass
class SessionFinal:
    committed: tuple[int, ...]
    interrupted_by: int | None
    body: dict[str, Any]


@dataclass
class Analysis:
    workload: Workload
    histories: dict[str, list[Operation]] = field(default_factory=dict)
    results: dict[str, CheckResult] = field(default_factory=dict)
    finals: dict[str, SessionFinal | None] = field(default_factory=dict)
    run_ids: dict[int, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    reached: Counter[str] = field(default_factory=Counter)
    """Admitted runs by whether they reached the model: yes, no, unknown."""
    commits: Counter[str] = field(default_factory=Counter)
    """Turns that completed: seen (answered) or inferred (a disconnected stream later found committed), or
    unknown (a disconnected stream whose session was deleted before the final read)."""
    outcomes: Counter[str] = field(default_factory=Counter)

    @property
    def operations_checked(self) -> int:
        return sum(len(h) for h in self.histories.values())

    def summary(self) -> str:
        kinds = Counter(r.kind for r in self.workload.records)
        return (
            f"seed {self.workload.seed}: {len(self.workload.records)} requests ({dict(sorted(kinds.items()))}), "
            f"{len(self.histories)} sessions, {self.operations_checked} model operations checked, "
            f"outcomes {dict(sorted(self.outcomes.items()))}, reached model {dict(self.reached)}, "
            f"commits {dict(self.commits)}, search steps {sum(r.steps for r in self.results.values())}"
        )


def _read_observation(body: dict[str, Any], problems: list[str], where: str) -> tuple[Read, SessionFinal]:
    history = body["history"]
    session = body["session"]
    users = history[0::2]
    committed = tuple(_tag(m["content"]) for m in users)
    if (
        len(history) % 2
        or any(m["role"] != "user" for m in users)
        or any(m["role"] != "assistant" for m in history[1::2])
    ):
        problems.append(f"{where}: history is not user/assistant pairs: {history}")
    for user, reply in zip(history[0::2], history[1::2], strict=False):
        if reply["content"] != echo_reply(user["content"]):
            problems.append(f"{where}: reply {reply['content']!r} does not answer {user['content']!r}")
    turns = body["turns"]
    if [t["revision"] for t in turns] != list(range(1, len(turns) + 1)) or session["revision"] != len(turns):
        problems.append(f"{where}: revisions are not 1..{session['revision']} one per turn: {turns}")
    if any((t["start"], t["end"]) != (2 * i, 2 * i + 2) for i, t in enumerate(turns)):
        problems.append(f"{where}: a turn did not add exactly its two messages: {turns}")
    if len(committed) != session["revision"] or session["messageCount"] != len(history):
        problems.append(f"{where}: revision {session['revision']} but {len(history)} messages")
    interrupted = body.get("interruptedTurn")
    interrupted_by = _tag(interrupted["input"]) if interrupted else None
    return Read(committed, session["status"], interrupted_by), SessionFinal(committed, interrupted_by, body)


def analyse(workload: Workload, max_messages: int) -> Analysis:
    analysis = Analysis(workload)
    records = workload.records
    by_id = {r.id: r for r in records}
    for record in records:
        run_id = record.outcome.get("run_id")
        if run_id:
            analysis.run_ids[record.parent or record.id] = run_id
    cancels: dict[str, bool] = {}
    for record in records:
        if record.outcome.get("type") == "cancel" and record.target_run is not None:
            cancels[record.target_run] = record.outcome["modelWorkStarted"]
        if record.outcome.get("type") == "unexpected":
            analysis.problems.append(f"op {record.id} ({record.kind}) got an unexpected answer: {record.outcome}")

    # the final read of every session tells which runs committed or interrupted it
    for session_id in workload.sessions:
        final = [r for r in workload.of_session(session_id) if r.client == -1]
        assert len(final) == 1
        outcome = final[0].outcome
        if outcome.get("type") == "read":
            _, analysis.finals[session_id] = _read_observation(outcome["body"], analysis.problems, session_id)
            if outcome["body"]["session"]["status"] == "running":
                analysis.problems.append(f"{session_id}: still running after the workload ended")
        else:
            analysis.finals[session_id] = None

    for session_id in workload.sessions:
        final = analysis.finals[session_id]
        history: list[Operation] = []
        for record in workload.of_session(session_id):
            history += _model_operations(record, analysis, cancels, final)
        analysis.histories[session_id] = history
        model = SessionModel(
            max_messages, {op: run for op, run in analysis.run_ids.items() if by_id[op].session_id == session_id}
        )
        result = check(model, history)
        analysis.results[session_id] = result
        if not result.ok:
            analysis.problems.append(f"session {session_id} is not linearizable:\n{result.explain(history)}")
        _check_successes(session_id, workload.of_session(session_id), final, analysis)
    return analysis


def _model_operations(
    record: OpRecord, analysis: Analysis, cancels: dict[str, bool], final: SessionFinal | None
) -> list[Operation]:
    outcome = record.outcome
    kind = outcome.get("type")
    analysis.outcomes[
        f"{record.kind}:{kind}"
        + (f":{outcome.get('code') or outcome.get('reason')}" if kind in ("refused", "failed", "cancelled") else "")
    ] += 1
    label = f"op-{record.id} {record.kind}@{record.revision} -> {outcome}"

    def op(call: float, ret: float, input: Any) -> Operation:
        return Operation(call, ret, input, None, label=f"{type(input).__name__}: {label}")

    if kind == "read":
        observation, _ = _read_observation(outcome["body"], analysis.problems, f"op {record.id}")
        return [op(record.call, record.ret, observation)]
    if kind == "gone":
        if record.kind == "delete":
            return [op(record.call, record.ret, Delete(False))]
        return [op(record.call, record.ret, Read(None))]
    if kind == "deleted":
        return [op(record.call, record.ret, Delete(True))]
    if kind == "cancel":
        session = outcome["session"]
        observed = Observe(None) if session is None else Observe(session[0], session[1])
        return [op(record.call, record.ret, observed)]
    if kind == "cancel_missed":
        return []
    if kind == "refused":
        assert record.revision is not None
        refusal = Refuse(
            record.id, record.revision, outcome["code"], outcome["currentRevision"], outcome["activeRunId"]
        )
        return [op(record.call, record.ret, refusal)]
    if kind == "unexpected":
        return []
    if record.kind == "answer":
        return _answer_operations(record, analysis, op)
    assert record.revision is not None, record
    admitted_by = record.started if record.started is not None else record.ret
    admit = op(record.call, admitted_by, Admit(record.id, record.revision))
    committed_finally = final is not None and record.id in final.committed
    interrupted_finally = final is not None and final.interrupted_by == record.id
    if kind == "paused":  # model work started; the finish comes with the answer (see _answer_operations)
        analysis.reached["yes"] += 1
        return [admit]
    if kind == "ok":
        analysis.reached["yes"] += 1
        analysis.commits["seen"] += 1
        return [admit, op(record.call, record.ret, Finish(record.id, frozenset({COMMIT}), outcome["revision"]))]
    if kind == "failed":
        analysis.reached["yes"] += 1
        return [admit, op(record.call, record.ret, Finish(record.id, frozenset({INTERRUPT})))]
    if kind == "cancelled":
        reason = outcome.get("reason")
        if reason == "session_deleted":
            analysis.reached["unknown"] += 1
            kinds = frozenset({DELETED})
        else:
            started = cancels.get(outcome.get("run_id") or analysis.run_ids.get(record.id, ""))
            if started is None and final is not None:
                started = interrupted_finally
            analysis.reached["unknown" if started is None else "yes" if started else "no"] += 1
            kinds = frozenset({INTERRUPT} if started else {RELEASE} if started is False else {INTERRUPT, RELEASE})
        return [admit, op(record.call, record.ret, Finish(record.id, kinds))]
    if kind == "disconnected":
        kinds = {COMMIT, INTERRUPT, DELETED} | (set() if outcome["saw_delta"] else {RELEASE})
        if outcome["saw_delta"] or committed_finally or interrupted_finally:
            analysis.reached["yes"] += 1
        else:
            analysis.reached["no" if final is not None else "unknown"] += 1
        if committed_finally:
            analysis.commits["inferred"] += 1
        elif final is None:
            analysis.commits["unknown"] += 1
        return [admit, op(record.call, INF, Finish(record.id, frozenset(kinds)))]
    raise AssertionError(f"unhandled outcome {outcome} of op {record.id}")


def _answer_operations(record: OpRecord, analysis: Analysis, op: Any) -> list[Operation]:
    """How the answer to a paused run places the run's finish.

    Answered and completed: the turn committed during the answer. Cancelled while it continued: it
    was interrupted (or deleted) during the answer. Not found or not waiting: someone ended it (cancel
    or delete) between its pause and the answer.
    """
    assert record.parent is not None
    parent, outcome = record.parent, record.outcome
    paused = next(r for r in analysis.workload.records if r.id == parent)
    kind = outcome.get("type")
    if kind == "ok":
        analysis.commits["seen"] += 1
        return [op(record.call, record.ret, Finish(parent, frozenset({COMMIT}), outcome["revision"]))]
    if kind == "cancelled":
        kinds = {DELETED} if outcome.get("reason") == "session_deleted" else {INTERRUPT}
        return [op(record.call, record.ret, Finish(parent, frozenset(kinds)))]
    if kind == "missed":
        return [op(paused.call, record.ret, Finish(parent, frozenset({INTERRUPT, DELETED})))]
    return []


def _check_successes(session_id: str, records: list[OpRecord], final: SessionFinal | None, analysis: Analysis) -> None:
    """No two successes share a revision; the final history is exactly the successful turns in revision order."""
    successes = [r for r in records if r.outcome.get("type") == "ok"]
    revisions = Counter(r.outcome["revision"] for r in successes)
    turn_of = {r.id: r.parent or r.id for r in successes}
    shared = {rev: n for rev, n in revisions.items() if n > 1}
    if shared:
        analysis.problems.append(f"{session_id}: several successes share revisions {shared}")
    if final is None:
        return
    by_revision = {r.outcome["revision"]: turn_of[r.id] for r in successes}
    for revision, op_id in by_revision.items():
        if revision > len(final.committed) or final.committed[revision - 1] != op_id:
            analysis.problems.append(
                f"{session_id}: op-{op_id} succeeded at revision {revision}, final {final.committed}"
            )
    for position, op_id in enumerate(final.committed, start=1):
        record = next((r for r in records if r.id == op_id), None)
        answered = any(r.parent == op_id and r.outcome.get("type") == "ok" for r in records)
        if record is None or (record.outcome.get("type") not in ("ok", "disconnected") and not answered):
            analysis.problems.append(f"{session_id}: revision {position} holds op-{op_id}, which did not succeed")
        turn_run = final.body["turns"][position - 1]["runId"]
        if op_id in analysis.run_ids and analysis.run_ids[op_id] != turn_run:
            analysis.problems.append(
                f"{session_id}: revision {position} was run {turn_run}, not {analysis.run_ids[op_id]}"
            )
