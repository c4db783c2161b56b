"""Fake upstreams for the provider adapters' tests: one local HTTP server per wire protocol.

Each fake speaks its provider's real wire format (recorded shapes of responses,
SSE streams in the real event order, error bodies and headers as the real API
sends them), checks the request the way the real service does (credentials,
required headers, tool results that answer a call, and every signed or
encrypted item replayed from earlier turns), and answers with a small scripted
"model" (``script.py``). The official SDKs, pointed at each fake with
``base_url``, prove the fakes faithful (``tests/fakes/test_sdk_faithful.py``).

Tests use a fake in-process: ``with OpenAIResponsesFake() as fake: fake.base_url``;
``fake.fail_next(kind, ...)`` queues a failure, ``fake.requests`` records what came in.
"""

from .anthropic import AnthropicFake
from .gemini import GeminiFake
from .openai_chat import OpenAIChatFake
from .openai_responses import OpenAIResponsesFake
from .server import FAILURE_KINDS, Failure, FakeUpstream

__all__ = [
    "FAILURE_KINDS",
    "AnthropicFake",
    "Failure",
    "FakeUpstream",
    "GeminiFake",
    "OpenAIChatFake",
    "OpenAIResponsesFake",
]
