# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.error_code import ErrorCode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.validation_issue import ValidationIssue


T = TypeVar("T", bound="Problem")


@_attrs_define
class Problem:
    """RFC 9457 problem details with a stable `code`. Code-specific fields
    appear only with the codes that use them.

        Attributes:
            type_ (str): A URN naming the problem type, `urn:agentic-driver:problem:<code>`.
            title (str): A short summary of the problem type.
            status (int): The HTTP status code.
            code (ErrorCode | str): The problem's stable code: one of `ErrorCode` (the codes this version
                of the contract defines), or a code added after it, which a client
                handles by the HTTP status. Each error response lists the codes it
                carries in `x-error-codes`.
            detail (str): What happened, for a person.
            instance (str | Unset): The request path.
            request_id (str | Unset): The request's id, the same as the `X-Request-Id` response header.
            current_revision (int | Unset): `SESSION_REVISION_CONFLICT`: the session's current revision.
            active_run_id (str | Unset): `SESSION_BUSY`: the run that holds the session.
            retry_after_seconds (int | Unset): The same value as the `Retry-After` header, where waiting helps.
            limit (str | Unset): `SESSION_LIMIT_EXCEEDED`, `SESSION_STORE_FULL`, `PAYLOAD_TOO_LARGE`, `REQUEST_TIMEOUT`,
                `HEADERS_TOO_LARGE`, `HOST_BUSY`, `ATTACHMENT_UNSUPPORTED`, `SUBJECT_QUOTA_EXCEEDED`: the bound that was hit, by
                its host setting name (on `ATTACHMENT_UNSUPPORTED` only when a size bound refused the attachment).
            maximum (int | Unset): The value of that bound.
            attachment (int | Unset): `ATTACHMENT_UNSUPPORTED`: the refused attachment's index in `attachments`.
            media_type (str | Unset): `ATTACHMENT_UNSUPPORTED`: the refused attachment's media type, as sent.
            provider (str | Unset): `ATTACHMENT_UNSUPPORTED`: the provider instance that does not take it.
            reason (str | Unset): `RUN_CANCELLED`: `cancelled`, `session_deleted`, `disconnected`, `shutdown` (the host
                stopped before the turn finished) or `action_timeout` (the run's `actionTimeoutMs` passed with its required
                action unanswered).
            host_id (str | Unset): `MISDIRECTED_REQUEST`: the host process that answered.
            owner_host_id (str | Unset): `MISDIRECTED_REQUEST`, `HOST_UNAVAILABLE`: the host process that owns the session
                or run the request names (send `Agentic-Host` with it).
            first_event_id (int | Unset): `RUN_EVENTS_EXPIRED`: the oldest event id of the run still buffered.
            errors (list[ValidationIssue] | Unset): `VALIDATION_ERROR`, `TOOL_NAME_CONFLICT`: every problem found in the
                request (for `TOOL_NAME_CONFLICT`, each tool whose name clashes).
    """

    type_: str
    title: str
    status: int
    code: ErrorCode | str
    detail: str
    instance: str | Unset = UNSET
    request_id: str | Unset = UNSET
    current_revision: int | Unset = UNSET
    active_run_id: str | Unset = UNSET
    retry_after_seconds: int | Unset = UNSET
    limit: str | Unset = UNSET
    maximum: int | Unset = UNSET
    attachment: int | Unset = UNSET
    media_type: str | Unset = UNSET
    provider: str | Unset = UNSET
    reason: str | Unset = UNSET
    host_id: str | Unset = UNSET
    owner_host_id: str | Unset = UNSET
    first_event_id: int | Unset = UNSET
    errors: list[ValidationIssue] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        title = self.title

        status = self.status

        code: str
        if isinstance(self.code, ErrorCode):
            code = self.code.value
        else:
            code = self.code

        detail = self.detail

        instance = self.instance

        request_id = self.request_id

        current_revision = self.current_revision

        active_run_id = self.active_run_id

        retry_after_seconds = self.retry_after_seconds

        limit = self.limit

        maximum = self.maximum

        attachment = self.attachment

        media_type = self.media_type

        provider = self.provider

        reason = self.reason

        host_id = self.host_id

        owner_host_id = self.owner_host_id

        first_event_id = self.first_event_id

        errors: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.errors, Unset):
            errors = []
            for errors_item_data in self.errors:
                errors_item = errors_item_data.to_dict()
                errors.append(errors_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "title": title,
                "status": status,
                "code": code,
                "detail": detail,
            }
        )
        if instance is not UNSET:
            field_dict["instance"] = instance
        if request_id is not UNSET:
            field_dict["requestId"] = request_id
        if current_revision is not UNSET:
            field_dict["currentRevision"] = current_revision
        if active_run_id is not UNSET:
            field_dict["activeRunId"] = active_run_id
        if retry_after_seconds is not UNSET:
            field_dict["retryAfterSeconds"] = retry_after_seconds
        if limit is not UNSET:
            field_dict["limit"] = limit
        if maximum is not UNSET:
            field_dict["maximum"] = maximum
        if attachment is not UNSET:
            field_dict["attachment"] = attachment
        if media_type is not UNSET:
            field_dict["mediaType"] = media_type
        if provider is not UNSET:
            field_dict["provider"] = provider
        if reason is not UNSET:
            field_dict["reason"] = reason
        if host_id is not UNSET:
            field_dict["hostId"] = host_id
        if owner_host_id is not UNSET:
            field_dict["ownerHostId"] = owner_host_id
        if first_event_id is not UNSET:
            field_dict["firstEventId"] = first_event_id
        if errors is not UNSET:
            field_dict["errors"] = errors

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.validation_issue import ValidationIssue

        d = dict(src_dict)
        type_ = d.pop("type")

        title = d.pop("title")

        status = d.pop("status")

        def _parse_code(data: object) -> ErrorCode | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                code_type_0 = ErrorCode(data)

                return code_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ErrorCode | str, data)

        code = _parse_code(d.pop("code"))

        detail = d.pop("detail")

        instance = d.pop("instance", UNSET)

        request_id = d.pop("requestId", UNSET)

        current_revision = d.pop("currentRevision", UNSET)

        active_run_id = d.pop("activeRunId", UNSET)

        retry_after_seconds = d.pop("retryAfterSeconds", UNSET)

        limit = d.pop("limit", UNSET)

        maximum = d.pop("maximum", UNSET)

        attachment = d.pop("attachment", UNSET)

        media_type = d.pop("mediaType", UNSET)

        provider = d.pop("provider", UNSET)

        reason = d.pop("reason", UNSET)

        host_id = d.pop("hostId", UNSET)

        owner_host_id = d.pop("ownerHostId", UNSET)

        first_event_id = d.pop("firstEventId", UNSET)

        _errors = d.pop("errors", UNSET)
        errors: list[ValidationIssue] | Unset = UNSET
        if _errors is not UNSET:
            errors = []
            for errors_item_data in _errors:
                errors_item = ValidationIssue.from_dict(errors_item_data)

                errors.append(errors_item)

        problem = cls(
            type_=type_,
            title=title,
            status=status,
            code=code,
            detail=detail,
            instance=instance,
            request_id=request_id,
            current_revision=current_revision,
            active_run_id=active_run_id,
            retry_after_seconds=retry_after_seconds,
            limit=limit,
            maximum=maximum,
            attachment=attachment,
            media_type=media_type,
            provider=provider,
            reason=reason,
            host_id=host_id,
            owner_host_id=owner_host_id,
            first_event_id=first_event_id,
            errors=errors,
        )

        problem.additional_properties = d
        return problem

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
