"""Copy the pinned Swagger UI release into the Python package, or check that the copy is that release.

    python server/docs-page/vendor.py          # after npm ci here: (re)write the vendored copy
    python server/docs-page/vendor.py --check  # fail if the committed copy differs from the pinned package

The renderer of the host's ``/docs`` page is ``swagger-ui-dist`` from the npm registry, at the exact
version pinned in this folder's package.json (and its lock). Its browser bundle, stylesheet and licence
files are committed under ``agentic_driver/http/docs/swagger-ui/``, so the wheel ships them and a host
never loads anything from elsewhere; this script is the only writer of that folder.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DIST = HERE / "node_modules" / "swagger-ui-dist"
TARGET = HERE.parent / "src" / "agentic_driver" / "http" / "docs" / "swagger-ui"
FILES = ("swagger-ui-bundle.js", "swagger-ui-bundle.js.LICENSE.txt", "swagger-ui.css", "LICENSE", "NOTICE")
VERSION_FILE = "VERSION"


def pinned_version() -> str:
    pinned = json.loads((HERE / "package.json").read_text(encoding="utf-8"))["devDependencies"]["swagger-ui-dist"]
    if not isinstance(pinned, str) or not pinned[:1].isdigit():
        raise SystemExit(f"vendor: swagger-ui-dist must be pinned to an exact version in package.json, not {pinned!r}")
    return pinned


def wanted() -> dict[str, bytes]:
    """Every file of the vendored folder, as the pinned package has it."""
    version = pinned_version()
    installed = json.loads((DIST / "package.json").read_text(encoding="utf-8"))["version"]
    if installed != version:
        raise SystemExit(f"vendor: node_modules has swagger-ui-dist {installed}, package.json pins {version}: npm ci")
    files = {name: (DIST / name).read_bytes() for name in FILES}
    files[VERSION_FILE] = f"swagger-ui-dist {version}\n".encode()
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    files = wanted()
    if args.check:
        present = {path.name for path in TARGET.iterdir()} if TARGET.is_dir() else set()
        differ = sorted(
            name
            for name, data in files.items()
            if not (TARGET / name).is_file() or (TARGET / name).read_bytes() != data
        )
        extra = sorted(present - set(files))
        if differ or extra:
            print(f"vendor: {TARGET} is not swagger-ui-dist {pinned_version()}: differs {differ}, extra {extra}")
            print("vendor: run `make vendor-docs-page` and commit the result")
            return 1
        print(f"vendor: {TARGET.relative_to(HERE.parent.parent)} is swagger-ui-dist {pinned_version()}")
        return 0
    TARGET.mkdir(parents=True, exist_ok=True)
    for path in TARGET.iterdir():
        if path.name not in files:
            path.unlink()
    for name, data in files.items():
        (TARGET / name).write_bytes(data)
    print(f"vendor: wrote swagger-ui-dist {pinned_version()} to {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
