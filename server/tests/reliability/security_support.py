"""Shared names of the security tests (``test_security_*.py``): the other subjects' tokens, the session
grants, a declared tool, the id pattern and made-up ids, and a token entry builder.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

BOB = "bob-secret-token-00000001"
CAROL = "carol-secret-token-000001"
MALLORY = "mallory-secret-token-0001"  # subject alice's neighbour: same provider, other subject
ATTACKERS = {"bob": BOB, "carol": CAROL, "mallory": MALLORY}
ALL = ["create", "read", "continue", "delete"]
LOOKUP = [{"name": "lookup", "description": "Look up.", "parameters": {"type": "object"}}]
ID = re.compile(r"(ses|run)_[A-Za-z0-9_-]{22}")


def _token(subject: str, secret: str, providers: list[str], grants: list[str]) -> dict[str, Any]:
    return {"subject": subject, "token": secret, "providers": providers, "sessions": grants}


def _fake(kind: str) -> str:
    return f"{kind}_" + secrets.token_urlsafe(16)
