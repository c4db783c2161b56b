"""Shared Hypothesis setup: a deterministic profile, JSON value strategies, and a tally of inputs tried.

The profile is derandomized (every run tries the same examples, so CI is deterministic), keeps no
example database, and has no per-example deadline. ``RELIABILITY_EXAMPLES`` scales the examples per
property (default 100).
"""

from __future__ import annotations

import atexit
import os
import sys
from collections import Counter
from typing import Any, TypeAlias

from hypothesis import settings
from hypothesis import strategies as st

PROPERTY_EXAMPLES = int(os.environ.get("RELIABILITY_EXAMPLES", "100"))

settings.register_profile("reliability", derandomize=True, database=None, deadline=None, print_blob=True)
settings.load_profile("reliability")

_TALLY: Counter[str] = Counter()


def tally(area: str, kind: str) -> None:
    """Count one bad input tried (reported when the test process ends)."""
    _TALLY[f"{area}:{kind}"] += 1


def _report() -> None:
    if _TALLY:
        total = sum(_TALLY.values())
        print(f"\nbad inputs tried: {total} {dict(sorted(_TALLY.items()))}", file=sys.stderr)


atexit.register(_report)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([0, -1, 2**31, 2**53 + 1, 2**63, 10**30, -(10**30)]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40),
    st.sampled_from(["", " ", "\x00", "\ud7ff", "a" * 300, "echo", "*", "ses_x", "run_x"]),
)
json_values: st.SearchStrategy[Any] = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=12,
)


JsonPath: TypeAlias = tuple[str | int, ...]


def json_paths(node: Any, prefix: JsonPath = ()) -> list[JsonPath]:
    """Every path into a JSON value, the root (``()``) first, members and items in order."""
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += json_paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += json_paths(value, (*prefix, index))
    return found
