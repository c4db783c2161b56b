"""The contract tests' fault proxy (``contract-tests/harness/faultproxy.py``) in front of a fake upstream.

The proxy runs as its own process on a free loopback port and is armed through
its control API (``POST /__faults``, ``GET /__faults/log``), exactly as the
client scenarios use it; its actions are described in
``contract-tests/scenarios/clients/README.md``.
"""

from __future__ import annotations

import re
import selectors
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

FAULT_PROXY = Path(__file__).resolve().parents[3] / "contract-tests" / "harness" / "faultproxy.py"
START_TIMEOUT_S = 10.0


class FaultProxy:
    """One proxy process forwarding to ``upstream``; ``base_url`` is what an adapter is configured with."""

    def __init__(self, upstream: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(FAULT_PROXY), "--upstream", upstream],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        self.base_url = self._announced_url()
        self._control = httpx.Client(base_url=self.base_url, timeout=10.0, trust_env=False)

    def _announced_url(self) -> str:
        """The URL from the proxy's ``listening on URL`` line, waited for within a bound."""
        assert self.process.stdout is not None
        deadline = time.monotonic() + START_TIMEOUT_S
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            while (remaining := deadline - time.monotonic()) > 0 and selector.select(remaining):
                line = self.process.stdout.readline()
                if not line:
                    break
                found = re.search(r"listening on (http://\S+)", line)
                if found:
                    return found.group(1)
        self.stop()
        raise RuntimeError("the fault proxy did not print 'listening on URL'")

    def arm(self, *faults: dict[str, Any]) -> None:
        """Replace the armed faults (none: forward everything) and clear the log."""
        response = self._control.post("/__faults", json={"faults": list(faults)})
        assert response.status_code == 204, response.text

    def requests(self, path: str) -> list[dict[str, Any]]:
        """What reached the proxy for ``path`` since it was last armed, oldest first."""
        entries: list[dict[str, Any]] = self._control.get("/__faults/log").json()["requests"]
        return [entry for entry in entries if entry["path"] == path]

    def stop(self) -> None:
        if hasattr(self, "_control"):
            self._control.close()
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5)
        if self.process.stdout is not None:
            self.process.stdout.close()
