"""A real OpenID provider for the tests (README.md): ``harness.start_idp``."""
