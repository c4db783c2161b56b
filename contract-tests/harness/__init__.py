"""Shared machinery of the contract tests: host processes, the spec, schemathesis glue, scenarios, metrics.

run.py ──> spec checks (validator, Redocly, Spectral)
       └─> pytest tests/ ──> hosts.py (real host processes on loopback)
                         ├─> schemathesis_run.py ──> schemathesis CLI + st_hooks.py (links, janitor, metrics)
                         ├─> scenarios.py (scenarios/*.json through the generated client)
                         │     └─> validation.py (every response through schemathesis checks)
                         └─> mutants.py (deliberately broken hosts the suite must reject)
       └─> metrics.py ──> reports/contract-metrics.json + the one-screen summary
"""
