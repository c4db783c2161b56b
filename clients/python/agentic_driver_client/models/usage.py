# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="Usage")


@_attrs_define
class Usage:
    """Token counts normalised across providers. `inputTokens` includes cached
    input and cache writes; `outputTokens` includes reasoning.

        Attributes:
            input_tokens (int): Tokens the model read.
            output_tokens (int): Tokens the model wrote.
            cached_input_tokens (int): Input tokens served from the provider's prompt cache.
            cache_write_tokens (int): Input tokens written to the provider's prompt cache.
            reasoning_tokens (int): Output tokens spent on reasoning.
    """

    input_tokens: int
    output_tokens: int
    cached_input_tokens: int
    cache_write_tokens: int
    reasoning_tokens: int

    def to_dict(self) -> dict[str, Any]:
        input_tokens = self.input_tokens

        output_tokens = self.output_tokens

        cached_input_tokens = self.cached_input_tokens

        cache_write_tokens = self.cache_write_tokens

        reasoning_tokens = self.reasoning_tokens

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "inputTokens": input_tokens,
                "outputTokens": output_tokens,
                "cachedInputTokens": cached_input_tokens,
                "cacheWriteTokens": cache_write_tokens,
                "reasoningTokens": reasoning_tokens,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        input_tokens = d.pop("inputTokens")

        output_tokens = d.pop("outputTokens")

        cached_input_tokens = d.pop("cachedInputTokens")

        cache_write_tokens = d.pop("cacheWriteTokens")

        reasoning_tokens = d.pop("reasoningTokens")

        usage = cls(
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            cached_input_tokens=cached_input_tokens,
            cache_write_tokens=cache_write_tokens,
            reasoning_tokens=reasoning_tokens,
        )

        return usage
