"""The tests' OpenID provider for another language's tests: ``python -m idp.serve DIR`` (from server/tests).

Starts it (``harness.start_idp``, files in DIR), prints one JSON line saying where it is and how to get a
short-lived token (its token endpoint, CA file, audience and the ``SHORT_LIVED`` client's credentials, which
are made per start) and the host JSON ``auth.jwt`` entry that trusts it; stops it when stdin closes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .harness import SHORT_LIVED, start_idp


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m idp.serve DIR", file=sys.stderr)
        return 2
    with start_idp(Path(argv[0])) as idp:
        client = idp.clients[SHORT_LIVED]
        where = {
            "issuer": idp.issuer,
            "tokenEndpoint": idp.token_endpoint,
            "caFile": str(idp.ca_file),
            "audience": idp.audience,
            "clientId": client.client_id,
            "clientSecret": client.client_secret,
            "ttlSeconds": client.ttl_seconds,
            "hostIssuer": idp.host_issuer(leewaySeconds=0),
        }
        print(json.dumps(where), flush=True)
        sys.stdin.read()  # until the test closes it (or exits)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
