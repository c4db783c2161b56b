"""``make newcomer-python``: install the Python client as its README says into a fresh place, check, run.

    python3 clients/newcomer/python/newcomer.py [--keep]

1. builds the wheel (``pip wheel --no-deps ./clients/python``) and lists it: both
   packages and both ``py.typed`` markers must be inside, and nothing else at the top;
2. creates a fresh virtual environment in a new temporary directory and runs the
   README's install command there: ``python -m pip install ./clients/python``
   (a plain, non-editable install from the checkout);
3. copies ``app.py`` and ``types_check.py`` next to it (outside the repository) and
   runs the repository's pinned mypy, ``--strict``, against that environment's
   installed packages (``--python-executable``), not the source tree;
4. runs ``app.py`` with that environment's Python against a live host
   (``clients/newcomer/with_host.py``).

Exits non-zero at the first failure. Test tooling, not product.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
REPO_VENV = ROOT / ".venv" / "bin"
EXPECTED_IN_WHEEL = (
    "agentic_driver_client/__init__.py",
    "agentic_driver_client/py.typed",
    "agentic_driver_client/models/session_info.py",
    "agentic_driver_sdk/__init__.py",
    "agentic_driver_sdk/py.typed",
)


def step(what: str, command: list[str], cwd: Path = ROOT) -> None:
    started = time.monotonic()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"newcomer-python: {what} failed: {' '.join(command)}")
    print(f"newcomer-python: {what} ({time.monotonic() - started:.1f} s)")
    if done.stdout.strip() and what.startswith(("mypy", "run")):
        print(done.stdout.rstrip())


def check_wheel(dist: Path) -> None:
    (wheel,) = dist.glob("agentic_driver_client-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    missing = [name for name in EXPECTED_IN_WHEEL if name not in names]
    tops = sorted({name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")})
    if missing or tops != ["agentic_driver_client", "agentic_driver_sdk"]:
        raise SystemExit(f"newcomer-python: {wheel.name}: missing {missing}, top-level entries {tops}")
    typed = [name for name in names if name.endswith("py.typed")]
    print(f"newcomer-python: {wheel.name}: {len(names)} files; top level {tops}; {typed}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    options = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="newcomer-python-"))
    try:
        dist, venv, app = scratch / "dist", scratch / "venv", scratch / "app"
        quiet = ["--quiet", "--disable-pip-version-check"]
        step("pip wheel", [sys.executable, "-m", "pip", "wheel", *quiet, "--no-deps", "-w", str(dist), "clients/python"])
        check_wheel(dist)
        step("fresh venv", [sys.executable, "-m", "venv", str(venv)])
        python = str(venv / "bin" / "python")
        step("pip install ./clients/python", [python, "-m", "pip", "install", *quiet, "./clients/python"])
        app.mkdir()
        for name in ("app.py", "types_check.py"):
            shutil.copy(HERE / name, app / name)
        mypy = [str(REPO_VENV / "mypy"), "--strict", "--python-executable", python, "--cache-dir", str(scratch / "mc")]
        step("mypy --strict against the installed wheel", [*mypy, "app.py", "types_check.py"], cwd=app)
        with_host = [sys.executable, str(ROOT / "clients/newcomer/with_host.py")]
        host = ["--agentic-driver", str(REPO_VENV / "agentic-driver")]
        step("run app.py against a live host", [*with_host, *host, "--", python, "app.py"], cwd=app)
    finally:
        if options.keep:
            print(f"newcomer-python: kept {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    print("newcomer-python: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
