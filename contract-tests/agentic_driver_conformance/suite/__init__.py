"""The checks of a kit run, as pytest tests (run by ``agentic_driver_conformance.cli``, never collected alone)."""
