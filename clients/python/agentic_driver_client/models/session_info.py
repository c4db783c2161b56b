# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.native_history_filter import NativeHistoryFilter
from ..models.session_mode import SessionMode
from ..models.session_status import SessionStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.retry_accounting import RetryAccounting
    from ..models.served_model_runs import ServedModelRuns
    from ..models.usage import Usage

if TYPE_CHECKING:
    from ..models.session_handle import SessionHandle


T = TypeVar("T", bound="SessionInfo")


@_attrs_define
class SessionInfo:
    """
    Attributes:
        id (str): The session id, `ses_{hostId}.{random}`: `hostId` is the DNS label
            of the host process that holds the session (`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)
            and `random` is URL-safe base64, so the first `.` ends the host part.
            Applications treat the id as opaque; clients and proxies read the
            host part to route (`Agentic-Host`). Ids of hosts older than this
            format (`ses_{random}`) name no host and stay valid.
        revision (int): Starts at 0 and advances by one with every completed turn.
        status (SessionStatus): `ready` accepts a run at the current revision; `running` has an active
            turn (running, or waiting for a run slot); `interrupted` refuses runs
            until the application reconciles and starts a new session.
        provider (str): The provider instance the session is bound to.
        model (str): The model the session is bound to.
        mode (SessionMode): `history` keeps submitted user text and final visible assistant text.
            `native` also keeps the provider's own state, unchanged, inside the host.
        created_at (datetime.datetime): Creation time, UTC, millisecond precision.
        updated_at (datetime.datetime): The last change of revision or status.
        expires_at (datetime.datetime | None): When the idle session expires; null while a turn is active.
        message_count (int): Visible messages held.
        record_bytes (int): Encoded bytes counted against `maxRecordBytes`.
        host_id (str): The id of the host that holds the session.
        native_history (NativeHistoryFilter): What a native session keeps of each stored turn (applied when the turn
            is stored, so replay and bounds both see the filtered history).
            `full` keeps everything; `no_reasoning` drops reasoning/thinking blocks
            whole (never edits one; Gemini's signed parts stay); `no_tool_results`
            replaces each tool result's content with a short placeholder, keeping
            calls and results paired; `compact_tool_results` cuts each tool result
            (a string or a list of text blocks) to at most the host's
            `sessions.compactToolResultsMaxChars` characters. A history that ends
            inside a tool round keeps that round as it is.
        run_count (int): Every turn ever run that reached the model, including interrupted and failed ones; truncation
            never rewinds it.
        usage (Usage): Token counts summed over the run's provider calls, normalised across
            providers whatever each one counts: `inputTokens` includes cached input
            and cache writes, `outputTokens` includes reasoning.
        cost (float | None): Cumulative cost when the host has prices for the model, else null.
        retries (RetryAccounting): Provider attempts that failed and were retried, and what they consumed (already
            billed).
        served_models (list[str]): Deprecated: read `servedModelRuns`, whose size does not grow with
            the session's turns. The model that answered each of the
            session's last 100 turns that reported one, as the provider
            reported it, oldest first (hosts before 0.3 kept every turn's).
        served_model_runs (list[ServedModelRuns] | Unset): Each model that answered a turn of the session, as the
            provider
            reported it, in the order first served, with how many turns it
            answered. One entry per distinct model, so it stays small
            whatever the number of turns; like `runCount`, truncation never
            rewinds it. Sent by every host from 0.3 on.
    """

    id: str
    revision: int
    status: SessionStatus
    provider: str
    model: str
    mode: SessionMode
    created_at: datetime.datetime
    updated_at: datetime.datetime
    expires_at: datetime.datetime | None
    message_count: int
    record_bytes: int
    host_id: str
    native_history: NativeHistoryFilter
    run_count: int
    usage: Usage
    cost: float | None
    retries: RetryAccounting
    served_models: list[str]
    served_model_runs: list[ServedModelRuns] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        revision = self.revision

        status = self.status.value

        provider = self.provider

        model = self.model

        mode = self.mode.value

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        message_count = self.message_count

        record_bytes = self.record_bytes

        host_id = self.host_id

        native_history = self.native_history.value

        run_count = self.run_count

        usage = self.usage.to_dict()

        cost: float | None
        cost = self.cost

        retries = self.retries.to_dict()

        served_models = self.served_models

        served_model_runs: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.served_model_runs, Unset):
            served_model_runs = []
            for served_model_runs_item_data in self.served_model_runs:
                served_model_runs_item = served_model_runs_item_data.to_dict()
                served_model_runs.append(served_model_runs_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "revision": revision,
                "status": status,
                "provider": provider,
                "model": model,
                "mode": mode,
                "createdAt": created_at,
                "updatedAt": updated_at,
                "expiresAt": expires_at,
                "messageCount": message_count,
                "recordBytes": record_bytes,
                "hostId": host_id,
                "nativeHistory": native_history,
                "runCount": run_count,
                "usage": usage,
                "cost": cost,
                "retries": retries,
                "servedModels": served_models,
            }
        )
        if served_model_runs is not UNSET:
            field_dict["servedModelRuns"] = served_model_runs

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.retry_accounting import RetryAccounting
        from ..models.served_model_runs import ServedModelRuns
        from ..models.usage import Usage

        d = dict(src_dict)
        id = d.pop("id")

        revision = d.pop("revision")

        status = SessionStatus(d.pop("status"))

        provider = d.pop("provider")

        model = d.pop("model")

        mode = SessionMode(d.pop("mode"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expires_at = _parse_expires_at(d.pop("expiresAt"))

        message_count = d.pop("messageCount")

        record_bytes = d.pop("recordBytes")

        host_id = d.pop("hostId")

        native_history = NativeHistoryFilter(d.pop("nativeHistory"))

        run_count = d.pop("runCount")

        usage = Usage.from_dict(d.pop("usage"))

        def _parse_cost(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        cost = _parse_cost(d.pop("cost"))

        retries = RetryAccounting.from_dict(d.pop("retries"))

        served_models = cast(list[str], d.pop("servedModels"))

        _served_model_runs = d.pop("servedModelRuns", UNSET)
        served_model_runs: list[ServedModelRuns] | Unset = UNSET
        if _served_model_runs is not UNSET:
            served_model_runs = []
            for served_model_runs_item_data in _served_model_runs:
                served_model_runs_item = ServedModelRuns.from_dict(
                    served_model_runs_item_data
                )

                served_model_runs.append(served_model_runs_item)

        session_info = cls(
            id=id,
            revision=revision,
            status=status,
            provider=provider,
            model=model,
            mode=mode,
            created_at=created_at,
            updated_at=updated_at,
            expires_at=expires_at,
            message_count=message_count,
            record_bytes=record_bytes,
            host_id=host_id,
            native_history=native_history,
            run_count=run_count,
            usage=usage,
            cost=cost,
            retries=retries,
            served_models=served_models,
            served_model_runs=served_model_runs,
        )

        return session_info

    @property
    def handle(self) -> SessionHandle:
        """``{id, revision}`` of this session, to pass to the next run (``session=info.handle``)."""
        from ..models.session_handle import SessionHandle

        return SessionHandle(id=self.id, revision=self.revision)
