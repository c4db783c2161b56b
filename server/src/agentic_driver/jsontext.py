"""JSON text as the host reads it (strictly: no member name twice) and writes it (canonically).

The two rules every reader and writer of JSON in the host shares, kept in one place: host JSON
and request bodies refuse a repeated member name, and what is fingerprinted, signed or compared
byte for byte (idempotency keys, echo's signed items) is written in one canonical form.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["RepeatedMember", "canonical_json", "unique_members"]


class RepeatedMember(ValueError):
    """A JSON object names a member twice: parsers disagree about which value counts (most keep the last)."""


def unique_members(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's members, refusing a name that appears twice (``json.loads``'s ``object_pairs_hook``)."""
    members = dict(pairs)  # in C; only a repeated name makes it shorter than the pairs
    if len(members) != len(pairs):
        raise RepeatedMember(f"the member name {_first_repeated(pairs)!r} appears twice in one object")
    return members


def _first_repeated(pairs: list[tuple[str, Any]]) -> str:
    seen: set[str] = set()
    for name, _ in pairs:
        if name in seen:
            return name
        seen.add(name)
    raise AssertionError("no member name repeats")


def canonical_json(value: Any) -> str:
    """``value`` as canonical JSON text: sorted keys, no spaces, non-ASCII as itself (encode it as UTF-8).

    The standard library encodes integers of any size (JSON Schema sets no 64-bit limit; orjson refuses them).
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
