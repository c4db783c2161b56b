"""Security, the grants matrix, exhaustively: every operation x every subset of the four session grants x
provider granted or not, each answered as the grants say.
"""

from __future__ import annotations

import itertools
from typing import Any

from .inprocess import AsgiCall, Rig, run_body
from .properties import tally
from .security_support import (
    ALL,
    LOOKUP,
    _token,
)

# -- the grants matrix ---------------------------------------------------------------------------

SUBSETS = [list(c) for n in range(5) for c in itertools.combinations(ALL, n)]
MATRIX_TOKENS = {
    (tuple(grants), provider): f"matrix-{'-'.join(grants) or 'none'}-{'echo' if provider else 'other'}-token"
    for grants in SUBSETS
    for provider in (True, False)
}
MATRIX_OPERATIONS = ["discovery", "create", "read", "delete", "run", "stream", "stateless", "cancel", "actions"]


def expected(operation: str, grants: tuple[str, ...], provider: bool) -> int:
    needs = {
        "create": "create",
        "read": "read",
        "delete": "delete",
        "run": "continue",
        "stream": "continue",
        "cancel": "continue",
        "actions": "continue",
    }
    if operation == "discovery":
        return 200
    if not provider:
        return 403
    if operation == "stateless":
        return 200
    if needs[operation] not in grants:
        return 403
    return {"create": 201, "delete": 204}.get(operation, 200)


async def _matrix_case(rig: Rig, operation: str, token: str) -> AsgiCall:
    """One operation by ``token`` on a fresh target owned by the same subject (made with a full token)."""
    full = "matrix-create-read-continue-delete-echo-token"
    created = await rig.request(
        "POST", "/v1/sessions", {"provider": "echo", "model": "echo-1", "mode": "history"}, token=full
    )
    session = created.json()["session"]
    if operation == "discovery":
        return await rig.request("GET", "/v1/discovery", token=token)
    if operation == "create":
        return await rig.request(
            "POST", "/v1/sessions", {"provider": "echo", "model": "echo-1", "mode": "history"}, token=token
        )
    if operation == "read":
        return await rig.request("GET", f"/v1/sessions/{session['id']}", token=token)
    if operation == "delete":
        return await rig.request("DELETE", f"/v1/sessions/{session['id']}", token=token)
    if operation in ("run", "stream"):
        path = "/v1/runs/stream" if operation == "stream" else "/v1/runs"
        return await rig.request("POST", path, run_body(session, "Go"), token=token)
    if operation == "stateless":
        return await rig.request("POST", "/v1/runs", run_body(None, "Go"), token=token)
    paused = await rig.request(
        "POST", "/v1/runs/stream", run_body(session, "!call lookup {}\nWait", tools=LOOKUP), token=full
    )
    run = paused.events()[-1]["run"]
    if operation == "cancel":
        answer = await rig.request("POST", f"/v1/runs/{run['id']}/cancel", token=token)
    else:
        call_id = run["requiredAction"]["calls"][0]["callId"]
        results = {"functionResults": [{"callId": call_id, "output": "ok"}]}
        answer = await rig.request("POST", f"/v1/runs/{run['id']}/actions", results, token=token)
    if answer.status != 200:  # leave nothing paused behind
        await rig.request("POST", f"/v1/runs/{run['id']}/cancel", token=full)
    return answer


async def test_the_grants_matrix_is_exhaustive(rigs: Any) -> None:
    rig: Rig = rigs(
        tokens=[
            _token("matrix", secret, ["echo"] if provider else ["other"], list(grants))
            for (grants, provider), secret in MATRIX_TOKENS.items()
        ],
        providers=[{"id": "other", "kind": "echo", "accountId": "acct-2"}],
    )
    seen = 0
    for (grants, provider), token in MATRIX_TOKENS.items():
        for operation in MATRIX_OPERATIONS:
            answer = await _matrix_case(rig, operation, token)
            want = expected(operation, grants, provider)
            assert answer.status == want, (operation, grants, provider, answer.body[:200])
            if want == 403:
                assert answer.json()["code"] == "PERMISSION_DENIED"
            if operation == "discovery":
                assert answer.json()["sessionGrants"] == list(grants)
                assert [p["id"] for p in answer.json()["providers"]] == (["echo"] if provider else ["other"])
            seen += 1
    assert seen == len(SUBSETS) * 2 * len(MATRIX_OPERATIONS) == 288
    tally("security", "grants matrix cases")
