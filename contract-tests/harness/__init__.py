"""The repository's side of the contract tests: the hosts it starts and the broken hosts the kit must reject.

run.py ──> spec checks of the repository (validator, Redocly, Spectral)
       ├─> hosts.py: the reference host from host.json (+ host-no-sessions.json) on loopback
       ├─> the kit (agentic_driver_conformance.cli, as users run it) against those hosts
       └─> pytest tests/ (the Spectral ruleset, the links, broken hosts from mutants.py, a host defect)
       └─> agentic_driver_conformance.metrics ──> reports/contract-metrics.json + the one-screen summary
faultproxy.py: the fault-injecting proxy of the client scenarios (scenarios/clients/), started by each client's tests.
"""
