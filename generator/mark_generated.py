"""Post-generation hook: put the 'generated, do not edit' header on every Python file of a tree.

openapi-python-client has no header option; its ``post_hooks`` run this on
its output so every generated module says where it came from.
"""

from __future__ import annotations

import sys
from pathlib import Path

HEADER = "# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.\n"


def mark(root: Path) -> None:
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if not text.startswith(HEADER):
            path.write_text(HEADER + text, encoding="utf-8")


if __name__ == "__main__":
    mark(Path(sys.argv[1] if len(sys.argv) > 1 else "."))
