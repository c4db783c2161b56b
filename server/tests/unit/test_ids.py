"""Session and run ids name their host; ids without a host part name none."""

from __future__ import annotations

import pytest

from agentic_driver.ids import HostIds, is_host_id, owner_of


def test_new_ids_name_their_host_and_are_unique() -> None:
    ids = HostIds("host-1")

    sessions = {ids.new_session_id() for _ in range(100)}
    runs = {ids.new_run_id() for _ in range(100)}

    assert len(sessions) == len(runs) == 100
    assert all(s.startswith("ses_host-1.") and len(s) == len("ses_host-1.") + 22 for s in sessions)
    assert all(r.startswith("run_host-1.") and len(r) == len("run_host-1.") + 22 for r in runs)
    assert {owner_of(i) for i in sessions | runs} == {"host-1"}
    assert all(ids.owns(i) for i in sessions | runs)


@pytest.mark.parametrize(
    ("an_id", "owner"),
    [
        ("ses_h.abc", "h"),
        ("run_web-0.Vb3kQ9sLm2Xc8Rt4Ny7Pwa", "web-0"),
        ("ses_" + "a" * 63 + ".x", "a" * 63),
        ("ses_" + "a" * 64 + ".x", None),  # longer than a DNS label
        ("ses_Vb3kQ9sLm2Xc8Rt4Ny7Pwa", None),  # an older host's id: no host part
        ("ses_Host.abc", None),  # upper case is not a DNS label
        ("ses_-h.abc", None),
        ("ses_.abc", None),
        ("sess_h.abc", None),
        ("h.abc", None),
        ("", None),
    ],
)
def test_owner_of_reads_the_documented_prefix_only(an_id: str, owner: str | None) -> None:
    assert owner_of(an_id) == owner


def test_a_host_owns_only_ids_that_name_it() -> None:
    ids = HostIds("host-1")

    assert not ids.owns(HostIds("host-10").new_session_id())
    assert not ids.owns("ses_Vb3kQ9sLm2Xc8Rt4Ny7Pwa")


@pytest.mark.parametrize("bad", ["", "Host", "-a", "a-", "a_b", "a.b", "a" * 64, "é"])
def test_a_host_id_must_be_a_dns_label(bad: str) -> None:
    assert not is_host_id(bad)
    with pytest.raises(ValueError, match="DNS label"):
        HostIds(bad)
