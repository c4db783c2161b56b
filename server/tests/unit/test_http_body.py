"""Request bodies are read as JSON Schema reads them: strict types, integral floats are integers."""

from __future__ import annotations

import pytest

from agentic_driver.errors import ValidationFailed
from agentic_driver.http.body import _decode_json


def test_an_integral_float_is_an_integer() -> None:
    assert _decode_json(b'{"revision": 3.0, "ratio": 0.5}') == {"revision": 3, "ratio": 0.5}


def test_integers_beyond_64_bits_survive() -> None:
    assert _decode_json(b"[123456789012345678901234567890]") == [123456789012345678901234567890]


@pytest.mark.parametrize(
    "raw",
    [
        b'{"a": NaN}',
        b'{"a": Infinity}',
        b'{"a": "\\ud800"}',  # a lone surrogate escape
        b"\xff\xfe",  # not UTF-8
        b"[" * 100_000,  # nesting beyond any sane depth
        b"",
        b'{"a": 1',
    ],
)
def test_what_is_not_json_is_a_validation_error(raw: bytes) -> None:
    with pytest.raises(ValidationFailed) as caught:
        _decode_json(raw)
    assert caught.value.errors[0]["location"] == "body"
    assert caught.value.detail.startswith("The request body is not valid JSON")


@pytest.mark.parametrize(
    "raw",
    [
        b'{"a": "x\xed\xa0\x80y"}',  # the UTF-8 bytes of a lone surrogate, which json.loads lets through
        b'{"a": "\\uDFFF"}',  # a lone low surrogate, upper-case escape
        '{"a": "\\ud800"}'.encode("utf-16"),  # the same escape in a UTF-16 text (BOM)
        '{"a": "\\ud800"}'.encode("utf-16-le"),  # ... and without a BOM
    ],
)
def test_lone_surrogates_are_refused_however_they_are_spelled(raw: bytes) -> None:
    with pytest.raises(ValidationFailed):
        _decode_json(raw)


def test_an_escaped_surrogate_pair_is_one_character() -> None:
    assert _decode_json(b'{"a": "\\ud83d\\ude00"}') == {"a": "\U0001f600"}


def test_a_repeated_member_name_is_refused_and_named() -> None:
    with pytest.raises(ValidationFailed) as caught:
        _decode_json(b'{"ok": 1, "input": "a", "nested": {"x": 1}, "input": "b"}')
    assert "'input' appears twice" in caught.value.detail
