"""Agentic Driver conformance kit: checks a running host against the contract (openapi.yaml) it was built for.

``agentic-driver-conformance --base-url URL`` (``cli.py``). The kit ships its own copy of the contract, the
language-neutral scenarios and the schemathesis configuration (``resources.py``), reads a profile
(``profile.py``) and runs its checks (``suite/``) as pytest tests:

cli.py ──> profile.py (discovery -> the plan: every check, or why it is skipped)
       └─> pytest suite/ ──> spec checks, discovery, probes (auth, error shapes)
                         ├─> scenarios.py (scenarios through the generated client: scenario_client.py sends,
                         │     │                scenario_expect.py matches the expectations)
                         │     └─> validation.py (every answer through schemathesis' checks + checks.py, which
                         │                        reads answers with check_answers.py, replays with check_memory.py)
                         └─> schemathesis_run.py ──> the schemathesis CLI + st_hooks.py
       └─> metrics.py ──> the report JSON + the one-screen summary
"""

__version__ = "0.1.0"
