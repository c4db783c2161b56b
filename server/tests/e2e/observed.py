"""What the observability tests share: an OpenAI-compatible fake upstream and the provider entry for it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fakes import OpenAIChatFake

UPSTREAM_KEY = "sk-observed-upstream-key-000001"
KEY_ENV = "AGENTIC_DRIVER_E2E_OBSERVED_KEY"


@pytest.fixture(scope="module")
def chat_fake() -> Iterator[OpenAIChatFake]:
    fake = OpenAIChatFake(api_key=UPSTREAM_KEY)
    fake.start()
    yield fake
    fake.stop()


def chat_provider(fake: OpenAIChatFake) -> dict[str, Any]:
    """Provider ``chat`` (model ``gpt-4o``) on ``fake``; the host needs ``{KEY_ENV: UPSTREAM_KEY}``."""
    return {
        "id": "chat",
        "kind": "openai-chat",
        "accountId": "acct-e2e",
        "models": ["gpt-4o"],
        "baseUrl": fake.base_url,
        "apiKeyEnv": KEY_ENV,
    }
