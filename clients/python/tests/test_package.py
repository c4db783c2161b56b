"""The package's public surface: what it exports, what it costs to import, what it adds to models."""

from __future__ import annotations

import subprocess
import sys

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


def test_session_info_has_a_handle_once_the_sdk_touched_the_models() -> None:
    from agentic_driver_client.models import SessionHandle, SessionInfo

    sdk.handle  # noqa: B018 - the public function is there without loading models
    import agentic_driver_sdk._models  # noqa: F401

    assert isinstance(SessionInfo.handle, property)  # type: ignore[attr-defined]
    info = SessionInfo.from_dict(
        {
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
            "usage": {
                "inputTokens": 0,
                "outputTokens": 0,
                "cachedInputTokens": 0,
                "cacheWriteTokens": 0,
                "reasoningTokens": 0,
            },
            "cost": None,
            "retries": {"count": 0, "inputTokens": 0, "outputTokens": 0, "cost": None},
            "servedModels": [],
        }
    )
    assert info.handle == SessionHandle(id="ses_1", revision=4) == sdk.handle(info)  # type: ignore[attr-defined]


def test_the_exception_tree_is_drawn_in_its_docstring() -> None:
    doc = sdk._exceptions.__doc__ or ""
    for name in sdk._exceptions.__all__:
        value = getattr(sdk, name)
        if isinstance(value, type) and issubclass(value, Exception):
            assert name in doc, f"{name} is missing from the drawn tree"
