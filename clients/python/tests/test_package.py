"""The package's public surface: what it exports, what it costs to import, what it adds to models."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import agentic_driver_sdk as sdk


def test_every_exported_name_resolves_and_nothing_public_is_missing() -> None:
    for name in sdk.__all__:
        assert getattr(sdk, name) is not None, name
    exported = set(sdk.__all__)
    for name, value in vars(sdk._exceptions).items():
        if isinstance(value, type) and issubclass(value, Exception) and not name.startswith("_"):
            assert name in exported, name


def test_importing_the_package_does_not_load_the_generated_models() -> None:
    code = (
        "import sys, agentic_driver_sdk;print(sorted(m for m in sys.modules if m.startswith('agentic_driver_client')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


SESSION: dict[str, Any] = {
    "id": "ses_1",
    "revision": 4,
    "status": "ready",
    "provider": "echo",
    "model": "echo-1",
    "mode": "history",
    "createdAt": "2026-01-01T00:00:00.000Z",
    "updatedAt": "2026-01-01T00:00:00.000Z",
    "expiresAt": None,
    "messageCount": 0,
    "recordBytes": 0,
    "hostId": "h",
    "nativeHistory": "full",
    "runCount": 0,
    "usage": {"inputTokens": 0, "outputTokens": 0, "cachedInputTokens": 0, "cacheWriteTokens": 0, "reasoningTokens": 0},
    "cost": None,
    "retries": {"count": 0, "inputTokens": 0, "outputTokens": 0, "cost": None},
    "servedModels": [],
}
"""A SessionInfo in its wire form."""


def test_session_info_handle_is_generated_not_patched() -> None:
    """``handle`` comes from the generator's model template; nothing is attached at import time."""
    import inspect

    from agentic_driver_client.models import SessionHandle, SessionInfo

    source = inspect.getsource(SessionInfo)
    assert "def handle(self) -> SessionHandle:" in source
    info = SessionInfo.from_dict(SESSION)
    assert info.handle == SessionHandle(id="ses_1", revision=4) == sdk.handle(info)
    patched = subprocess.run(
        [sys.executable, "-c", "import inspect, agentic_driver_sdk._models as m; print(inspect.getsource(m))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "SessionInfo.handle =" not in patched


def test_both_packages_ship_py_typed() -> None:
    from pathlib import Path

    import agentic_driver_client

    for package in (agentic_driver_client, sdk):
        assert (Path(package.__file__).parent / "py.typed").is_file(), package.__name__


def test_the_exception_tree_is_drawn_in_its_docstring() -> None:
    doc = sdk._exceptions.__doc__ or ""
    for name in sdk._exceptions.__all__:
        value = getattr(sdk, name)
        if isinstance(value, type) and issubclass(value, Exception):
            assert name in doc, f"{name} is missing from the drawn tree"


def test_the_model_template_is_the_generators_own_plus_the_two_includes() -> None:
    """generator/python/templates/model.py.jinja copies openapi-python-client's; an upgrade must refresh the copy."""
    from pathlib import Path

    import openapi_python_client

    upstream = (Path(openapi_python_client.__file__).parent / "templates" / "model.py.jinja").read_text("utf-8")
    ours = (Path(__file__).resolve().parents[3] / "generator/python/templates/model.py.jinja").read_text("utf-8")
    added = [line for line in ours.splitlines() if line not in upstream.splitlines()]
    assert sum("{% include" in line for line in added) == 2
    assert all("{% include" in line or line.startswith(("{#", "   ")) for line in added), added
    kept = [line for line in ours.splitlines() if line not in added]
    assert kept == upstream.splitlines()
