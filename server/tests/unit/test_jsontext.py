"""The host's two JSON rules: no member name twice when reading, one canonical form when writing."""

from __future__ import annotations

import json

import pytest

from agentic_driver.jsontext import RepeatedMember, canonical_json, unique_members


def test_a_repeated_member_name_is_refused_naming_the_first_one_repeated() -> None:
    with pytest.raises(RepeatedMember, match="'a' appears twice"):
        json.loads('{"a": 1, "b": 2, "a": 3, "b": 4}', object_pairs_hook=unique_members)


def test_an_object_without_repeats_keeps_its_members_in_order() -> None:
    assert list(json.loads('{"z": 1, "a": {"y": 2}}', object_pairs_hook=unique_members)) == ["z", "a"]


def test_canonical_json_sorts_keys_drops_spaces_and_keeps_non_ascii() -> None:
    assert canonical_json({"b": [1, 2**70], "a": "é"}) == '{"a":"é","b":[1,1180591620717411303424]}'
