"""The benchmark harness: our host against its floor and its peer, side by side in one run.

``python -m harness`` (from ``bench/``, or ``make bench``) starts each target,
drives the phases with the load generator, and writes ``results/latest.json``.
"""
