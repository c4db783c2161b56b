# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.native_history_filter import NativeHistoryFilter
from ..types import UNSET, Unset

T = TypeVar("T", bound="ProviderCapabilities")


@_attrs_define
class ProviderCapabilities:
    """
    Attributes:
        history_continuation (bool): Sessions in `history` mode are supported.
        native_continuation (bool): Sessions in `native` mode are supported.
        streaming (bool): Streamed runs are supported.
        application_functions (bool): Application-owned functions are supported.
        native_history_filters (list[NativeHistoryFilter]): The `nativeHistory` filters this instance's native sessions
            support.
        attachment_media_types (list[str] | Unset): The attachment media types a stateless run on this instance may
            send:
            media types, or ranges such as `text/*` (sent decoded, as text beside
            the input). Images and PDFs go in the provider's own form. Any other
            type is `ATTACHMENT_UNSUPPORTED` before any model work. Matching
            ignores case and parameters such as `; charset=utf-8`.
    """

    history_continuation: bool
    native_continuation: bool
    streaming: bool
    application_functions: bool
    native_history_filters: list[NativeHistoryFilter]
    attachment_media_types: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        history_continuation = self.history_continuation

        native_continuation = self.native_continuation

        streaming = self.streaming

        application_functions = self.application_functions

        native_history_filters = []
        for native_history_filters_item_data in self.native_history_filters:
            native_history_filters_item = native_history_filters_item_data.value
            native_history_filters.append(native_history_filters_item)

        attachment_media_types: list[str] | Unset = UNSET
        if not isinstance(self.attachment_media_types, Unset):
            attachment_media_types = self.attachment_media_types

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "historyContinuation": history_continuation,
                "nativeContinuation": native_continuation,
                "streaming": streaming,
                "applicationFunctions": application_functions,
                "nativeHistoryFilters": native_history_filters,
            }
        )
        if attachment_media_types is not UNSET:
            field_dict["attachmentMediaTypes"] = attachment_media_types

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        history_continuation = d.pop("historyContinuation")

        native_continuation = d.pop("nativeContinuation")

        streaming = d.pop("streaming")

        application_functions = d.pop("applicationFunctions")

        native_history_filters = []
        _native_history_filters = d.pop("nativeHistoryFilters")
        for native_history_filters_item_data in _native_history_filters:
            native_history_filters_item = NativeHistoryFilter(
                native_history_filters_item_data
            )

            native_history_filters.append(native_history_filters_item)

        attachment_media_types = cast(list[str], d.pop("attachmentMediaTypes", UNSET))

        provider_capabilities = cls(
            history_continuation=history_continuation,
            native_continuation=native_continuation,
            streaming=streaming,
            application_functions=application_functions,
            native_history_filters=native_history_filters,
            attachment_media_types=attachment_media_types,
        )

        return provider_capabilities
