# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ProviderCapabilities")


@_attrs_define
class ProviderCapabilities:
    """
    Attributes:
        history_continuation (bool): Sessions in `history` mode are supported.
        native_continuation (bool): Sessions in `native` mode are supported.
        streaming (bool): Streamed runs are supported.
        application_functions (bool): Application-owned functions are supported.
    """

    history_continuation: bool
    native_continuation: bool
    streaming: bool
    application_functions: bool

    def to_dict(self) -> dict[str, Any]:
        history_continuation = self.history_continuation

        native_continuation = self.native_continuation

        streaming = self.streaming

        application_functions = self.application_functions

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "historyContinuation": history_continuation,
                "nativeContinuation": native_continuation,
                "streaming": streaming,
                "applicationFunctions": application_functions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        history_continuation = d.pop("historyContinuation")

        native_continuation = d.pop("nativeContinuation")

        streaming = d.pop("streaming")

        application_functions = d.pop("applicationFunctions")

        provider_capabilities = cls(
            history_continuation=history_continuation,
            native_continuation=native_continuation,
            streaming=streaming,
            application_functions=application_functions,
        )

        return provider_capabilities
