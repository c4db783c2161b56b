"""A fake that stops accepting replayed signatures: what a provider does when signed state goes bad.

``tampering(AnthropicFake, from_request=2)`` is that fake's class (same name, so the authority
checks apply) whose verification of every signed or encrypted item fails from its
``from_request``-th request on (counted from 1, as they arrive), while its own new signatures
stay valid: each replay after that point is refused exactly as the real service refuses a
tampered one.
"""

from __future__ import annotations

from typing import Any, TypeVar

from .server import FakeUpstream

F = TypeVar("F", bound=FakeUpstream)


def tampering(fake: type[F], from_request: int) -> type[F]:
    class Tampering(fake):  # type: ignore[valid-type,misc]  # a subclass of the fake given
        def verify(self, text: str, signature: Any) -> bool:
            if len(self.requests) >= from_request:  # the request being checked is recorded already
                return False
            return super().verify(text, signature)

    return Tampering
