"""The contract document: the kit's own copy is valid, and the host serves exactly that copy.

Every other check reads the kit's copy (pinned to the contract version the kit was built for), never the host's:
a host that served a weaker document would fail here and still be judged against the kit's.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
import yaml
from openapi_spec_validator import validate

from agentic_driver_conformance import spec
from agentic_driver_conformance.profile import Plan
from agentic_driver_conformance.suite.conftest import require

TIMEOUT_S = 10.0


def _differences(expected: dict[str, Any], served: object) -> list[str]:
    if not isinstance(served, dict):
        return ["the served document is not an object"]
    found = []
    if served.get("info", {}).get("version") != expected["info"]["version"]:
        found.append(f"info.version {served.get('info', {}).get('version')!r}, kit {expected['info']['version']!r}")
    for section in ("paths", "components"):
        names = set(expected.get(section, {})) ^ set(served.get(section, {}))
        if names:
            found.append(f"{section}: only in one of the documents: {sorted(names)[:10]}")
        for name in sorted(set(expected.get(section, {})) & set(served.get(section, {}))):
            if expected[section][name] != served[section][name]:
                found.append(f"{section}.{name} differs")
    return found or ([] if expected == served else ["the documents differ outside paths and components"])


@pytest.mark.parametrize("name", ["shipped-copy-valid", "served-document"])
def test_spec(plan: Plan, name: str) -> None:
    require(plan, f"spec {name}")
    if name == "shipped-copy-valid":
        validate(spec.document())
        return
    expected = spec.document()
    with httpx.Client(base_url=plan.base_url, trust_env=False, timeout=TIMEOUT_S) as http:
        as_json = http.get("/openapi.json")
        as_yaml = http.get("/openapi.yaml")
    assert as_json.status_code == 200, f"GET /openapi.json answered {as_json.status_code}"
    problems = _differences(expected, json.loads(as_json.text))
    assert not problems, "GET /openapi.json is not the kit's openapi.yaml: " + "; ".join(problems[:8])
    assert as_yaml.status_code == 200, f"GET /openapi.yaml answered {as_yaml.status_code}"
    problems = _differences(expected, yaml.safe_load(as_yaml.text))
    assert not problems, "GET /openapi.yaml is not the kit's openapi.yaml: " + "; ".join(problems[:8])
