"""``agentic-driver qualify``: a short native session against a live instance, through the embedded ``Driver``.

What it exercises, how a record counts as current and how a host requires one:
``qualification.py`` and docs/providers.md, "Qualifying live native continuation".
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from pydantic import MISSING

from .clock import Clock, SystemClock
from .config import HostConfig, ProviderConfig, SessionsConfig
from .driver import Driver
from .errors import DriverError
from .models import (
    CreateSessionRequest,
    FunctionResult,
    RunRequest,
    RunResult,
    SessionHandle,
    SessionInfo,
    SubmitRunActionsRequest,
    ToolDefinition,
)
from .qualification import Qualification, TurnReport, identity_of, record_path, write_record

__all__ = ["PROBE", "Qualification", "QualificationError", "qualify", "record_path", "write_record"]

PROBE = "qualification_probe"
MAX_TOOL_ROUNDS = 3
"""Function rounds answered within one turn before qualification gives up on a model that keeps calling."""
INSTRUCTIONS = "You are a friendly assistant talking to a user. The user's messages tell you facts about the user."
"""The wording that lets even a 135M model (SmolLM2 through LiteLLM) answer the recall turn: told who is who,
it answers "What is my name?" with the name, where "which word did I ask you to remember" drew a refusal."""
CALL_INSTRUCTIONS = " When the user writes 'call NAME {json}', call the function NAME with that JSON object."
SYLLABLES = [c + v for c in "bdfklmnprstvz" for v in "aeiou"]


class QualificationError(ValueError):
    """The instance or model cannot be qualified at all (unknown, no native continuation, no account binding)."""


def _driver_for(config: HostConfig, provider: ProviderConfig, clock: Clock) -> Driver:
    """A driver with only the instance under test, its own session store, no host tools and no requirement
    (qualifying must not need the record it makes)."""
    probe = config.model_copy(
        update={
            "providers": [provider],
            "tools": [],
            "tokens": [],
            "qualification": None,
            "sessions": config.sessions or SessionsConfig(retentionMs=60 * 60 * 1000),
        }
    )
    return Driver.from_config(probe, clock=clock)


def _target(config: HostConfig, provider_id: str, model: str) -> ProviderConfig:
    chosen = next((p for p in config.providers if p.id == provider_id), None)
    if chosen is None:
        known = ", ".join(repr(p.id) for p in config.providers)
        raise QualificationError(f"no provider instance {provider_id!r} in the host JSON (it has {known})")
    if model not in chosen.models:
        raise QualificationError(f"provider {provider_id!r} does not serve model {model!r} (models: {chosen.models})")
    if chosen.accountId is None:
        raise QualificationError(f"provider {provider_id!r} has no accountId: a record qualifies an account binding")
    return chosen


async def qualify(
    config: HostConfig,
    provider_id: str,
    model: str,
    *,
    tool_round: bool = True,
    clock: Clock | None = None,
    name: str | None = None,
) -> Qualification:
    """Run the qualification session; raises ``QualificationError`` when there is nothing to qualify.

    ``tool_round=False`` leaves out the function round (and sends no tools at all), for a deployment
    that refuses ``tools`` although its wire protocol has them; the record then says ``toolRound: false``.
    """
    clock = clock or SystemClock()
    chosen = _target(config, provider_id, model)
    async with _driver_for(config, chosen, clock) as driver:
        return await _qualified(driver, chosen, provider_id, model, tool_round, clock, name)


async def _qualified(
    driver: Driver,
    chosen: ProviderConfig,
    provider_id: str,
    model: str,
    tool_round: bool,
    clock: Clock,
    name: str | None,
) -> Qualification:
    capabilities = (await driver.discovery()).providers[0].capabilities
    if not capabilities.nativeContinuation:
        raise QualificationError(f"provider {provider_id!r} ({chosen.kind}) does not do native continuation")
    outcome = Qualification(identity_of(chosen, chosen.accountId, model), clock.now_ms())
    session = _Session(driver, provider_id, model, tool_round and capabilities.applicationFunctions)
    name = name or _random_name()
    plan: list[tuple[str, str, Callable[[RunResult, int], str | None]]] = [
        ("remember", f"My name is {name}.", _answered)
    ]
    if session.functions:
        probe_input = f'call {PROBE} {{"code": "{secrets.token_hex(3)}"}}'
        plan.append(("tool round", probe_input, _called))
    plan.append(("recall", "What is my name?", _recalls(name)))
    try:
        await session.start()
    except DriverError as error:
        outcome.failure = f"the native session could not be created: {error.code.value}: {error.detail}"
        return outcome
    for number, (purpose, text, check) in enumerate(plan, start=1):
        report = TurnReport(number, purpose, replayedItems=session.stored())
        outcome.reports.append(report)
        outcome.failure = await session.turn(report, text, check)
        if outcome.failure is not None:
            return outcome
    return outcome


def _random_name() -> str:
    """A made-up name (about 30 bits), so a recall cannot come from the model's priors."""
    return "".join(secrets.choice(SYLLABLES) for _ in range(5)).capitalize()


def _answered(result: RunResult, rounds: int) -> str | None:
    return None if result.output.text.strip() else "the reply is empty"


def _called(result: RunResult, rounds: int) -> str | None:
    if rounds == 0:
        return f"the model did not call {PROBE}, so no tool round was replayed"
    return _answered(result, rounds)


def _recalls(name: str) -> Callable[[RunResult, int], str | None]:
    def check(result: RunResult, rounds: int) -> str | None:
        if name.lower() in result.output.text.lower():
            return None
        return f"the reply does not recall the name {name!r} given in turn 1: {result.output.text[:200]!r}"

    return check


class _Session:
    """One native session driven turn by turn, answering the probe function when the model calls it."""

    def __init__(self, driver: Driver, provider: str, model: str, functions: bool) -> None:
        self.driver = driver
        self.provider = provider
        self.model = model
        self.functions = functions
        self.handle = SessionHandle(id="", revision=0)
        # The same tool surface on every turn: Anthropic's native prefix must stay byte-identical.
        self.tools = (
            [
                ToolDefinition(
                    name=PROBE,
                    description="Returns a confirmation for the code it is given.",
                    parameters={"type": "object", "properties": {"code": {"type": "string"}}, "required": ["code"]},
                )
            ]
            if functions
            else None
        )

    async def start(self) -> None:
        created = await self.driver.create_session(
            CreateSessionRequest(
                provider=self.provider,
                model=self.model,
                mode="native",
                instructions=INSTRUCTIONS + (CALL_INSTRUCTIONS if self.functions else ""),
            )
        )
        self.handle = SessionHandle(id=created.session.id, revision=created.session.revision)

    def stored(self) -> int:
        store = self.driver.store
        record = store.get(self.handle.id) if store is not None else None
        return len(record.native) if record is not None else 0

    async def turn(self, report: TurnReport, text: str, check: Callable[[RunResult, int], str | None]) -> str | None:
        """Run one turn; the failure (naming the turn) or None."""
        request = RunRequest(provider=self.provider, model=self.model, input=text, session=self.handle)
        if self.tools is not None:
            request = request.model_copy(update={"tools": self.tools})
        try:
            result = await self.driver.run(request)
            while result.status == "requires_action":
                if report.toolRounds == MAX_TOOL_ROUNDS:
                    return self._fail(report, None, f"the model was still calling functions after {MAX_TOOL_ROUNDS}")
                report.toolRounds += 1
                result = await self.driver.submit_run_actions(result.id, _probe_answers(result))
        except DriverError as error:
            return self._fail(report, error.code.value, error.detail)
        report.storedItems = self.stored()
        problem = check(result, report.toolRounds)
        if problem is None and report.storedItems <= report.replayedItems:
            problem = "the session kept no new provider items, so nothing native would be replayed"
        if problem is not None:
            return self._fail(report, None, problem)
        report.outcome = "accepted"
        session = result.session
        if isinstance(session, SessionInfo):  # a session run always answers with it
            self.handle = SessionHandle(id=session.id, revision=session.revision)
        return None

    @staticmethod
    def _fail(report: TurnReport, code: str | None, detail: str) -> str:
        report.outcome, report.code, report.detail = "failed", code, detail
        where = f"replaying {report.replayedItems} stored provider items" if report.replayedItems else "replaying none"
        if report.toolRounds:
            where += f", after {report.toolRounds} function round{'s' if report.toolRounds > 1 else ''}"
        said = f"{code}: {detail}" if code is not None else detail
        return f"turn {report.turn} ({report.purpose}, {where}) failed: {said}"


def _probe_answers(result: RunResult) -> SubmitRunActionsRequest:
    action = result.requiredAction
    calls = [] if action is MISSING or action.type != "function_calls" else action.calls
    return SubmitRunActionsRequest(
        functionResults=[
            FunctionResult(callId=call.callId, output=f"confirmed {call.arguments.get('code', '')}".strip())
            for call in calls
        ]
    )
