"""The host serves the contract itself, exactly, and no docs page unless its host JSON asks (docs-page/)."""

from __future__ import annotations

import json

import yaml

from .conftest import REPO_ROOT, Host, assert_problem

SPEC_PATH = REPO_ROOT / "openapi.yaml"


def test_openapi_yaml_is_served_byte_for_byte(main_host: Host) -> None:
    with main_host.raw() as http:  # no token needed
        response = http.get("/openapi.yaml")
    assert response.status_code == 200
    assert response.headers["content-type"].split(";")[0] == "application/yaml"
    assert response.content == SPEC_PATH.read_bytes()


def test_openapi_json_is_the_same_document(main_host: Host) -> None:
    with main_host.raw() as http:
        response = http.get("/openapi.json")
    assert response.status_code == 200
    assert response.headers["content-type"].split(";")[0] == "application/json"
    served = json.loads(response.content)
    assert served == yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8"))
    assert served["openapi"].startswith("3.1")
    assert "/v1/runs" in served["paths"]


def test_no_docs_pages_unless_asked(main_host: Host) -> None:
    assert "docs" not in main_host.config, "the main host runs with the default: docs off"
    with main_host.raw() as http:
        for path in ("/docs", "/redoc", "/docs/oauth2-redirect"):
            response = http.get(path)
            assert_problem(response, 404, "ROUTE_NOT_FOUND", instance=path)
            assert b"cdn" not in response.content.lower()


def test_responses_do_not_advertise_the_server_stack(main_host: Host) -> None:
    with main_host.raw() as http:
        response = http.get("/healthz")
    assert response.status_code == 200
    assert "server" not in response.headers
    assert "date" in response.headers  # an origin server with a clock sends Date (RFC 9110)
