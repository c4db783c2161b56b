"""``python -m agentic_driver_conformance``: the same as the ``agentic-driver-conformance`` command."""

import sys

from .cli import main

sys.exit(main())
