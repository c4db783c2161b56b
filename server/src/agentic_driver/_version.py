"""The package's version, in a module of its own so that modules the package imports can read it
without importing the package back (``tests/unit/test_import_cycles.py``)."""

__version__ = "0.1.0"
