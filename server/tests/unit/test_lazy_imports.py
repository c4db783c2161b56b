"""The host starts without the upstream adapters (and httpx) unless its config names one of them."""

from __future__ import annotations

import subprocess
import sys

import pytest


def modules_after(code: str) -> set[str]:
    probe = f"{code}\nimport sys\nprint('\\n'.join(sys.modules))"
    output = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout
    return set(output.split())


def test_the_embedded_default_host_imports_no_upstream_adapter() -> None:
    loaded = modules_after(
        "from agentic_driver import Driver, TokenPolicy, embedded_default\n"
        "from agentic_driver.http import create_app\n"
        "config, _ = embedded_default(token='t' * 24)\n"
        "create_app(Driver.from_config(config), TokenPolicy(config.tokens))"
    )

    assert "agentic_driver.providers.echo" in loaded
    assert not loaded & {"httpx", "agentic_driver.providers.anthropic", "agentic_driver.providers.openai_responses"}
    # nor the JWT verifier (PyJWT) without auth.jwt
    assert not loaded & {"agentic_driver.auth_jwt", "jwt"}
    # tracing is off unless configured, and then the OpenTelemetry SDK and exporter are not even imported
    # (FastAPI itself imports the OpenTelemetry API when it is installed, for its own hooks, which are off)
    assert "agentic_driver.telemetry" in loaded
    assert not [name for name in loaded if name.startswith(("opentelemetry.sdk", "opentelemetry.exporter"))]


@pytest.mark.parametrize(
    "name", ["AnthropicProvider", "CliProvider", "GeminiProvider", "OpenAIChatProvider", "OpenAIResponsesProvider"]
)
def test_every_adapter_is_still_importable_from_the_providers_package(name: str) -> None:
    import agentic_driver.providers as providers

    assert getattr(providers, name).__name__ == name


def test_an_unknown_name_is_still_an_attribute_error() -> None:
    import agentic_driver.providers as providers

    with pytest.raises(AttributeError):
        providers.NoSuchProvider  # noqa: B018
