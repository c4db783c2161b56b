"""Regenerate every tree that comes from openapi.yaml, or check that none has drifted.

    python generator/generate.py          # write server models and clients
    python generator/generate.py --check  # generate into a temporary tree; fail on any difference

Generated trees (each file carries a 'DO NOT EDIT' header):

- server/src/agentic_driver/models.py     datamodel-code-generator (pydantic v2)
- clients/python/agentic_driver_client/   openapi-python-client
- server/src/agentic_driver/http/openapi.yaml   a byte-identical copy the host serves
"""

from __future__ import annotations

import argparse
import filecmp
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "openapi.yaml"
GENERATOR = ROOT / "generator"
SERVER_MODELS = Path("server/src/agentic_driver/models.py")
PYTHON_CLIENT = Path("clients/python/agentic_driver_client")
SERVED_SPEC = Path("server/src/agentic_driver/http/openapi.yaml")
SERVER_HEADER = "# Generated from openapi.yaml by datamodel-code-generator (see generator/). DO NOT EDIT."


def _tool(name: str) -> str:
    """A tool from the interpreter's own environment, so the pinned version is used."""
    candidate = Path(sys.executable).parent / name
    return str(candidate) if candidate.exists() else name


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["AGENTIC_DRIVER_GENERATOR"] = str(GENERATOR)
    return env


def generate_server_models(target: Path) -> None:
    args = shlex.split((GENERATOR / "server" / "datamodel-codegen.args").read_text(), comments=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            _tool("datamodel-codegen"),
            "--input",
            str(SPEC),
            "--output",
            str(target),
            "--custom-file-header",
            SERVER_HEADER,
            *args,
        ],
        check=True,
        env=_env(),
        cwd=ROOT,
    )
    formatter = [_tool("ruff"), "format", "--isolated", "--no-cache", "--quiet", str(target)]
    subprocess.run(formatter, check=True, env=_env())


def generate_python_client(target: Path) -> None:
    if target.exists():
        shutil.rmtree(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    result = subprocess.run(
        [
            _tool("openapi-python-client"),
            "generate",
            "--path",
            str(SPEC),
            "--meta",
            "none",
            "--config",
            str(GENERATOR / "python" / "config.yaml"),
            "--output-path",
            str(target),
            "--custom-template-path",
            str(GENERATOR / "python" / "templates"),
        ],
        env=_env(),
        cwd=target.parent,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0 or "Warning" in result.stdout or "Error" in result.stdout:
        sys.stderr.write(result.stdout + result.stderr)
        raise SystemExit("openapi-python-client reported problems (above)")


def generate_all(root: Path) -> None:
    (root / SERVED_SPEC).parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SPEC, root / SERVED_SPEC)
    generate_server_models(root / SERVER_MODELS)
    generate_python_client(root / PYTHON_CLIENT)


def _differences(expected: Path, actual: Path) -> list[str]:
    if expected.is_file() or actual.is_file():
        same = expected.is_file() and actual.is_file() and filecmp.cmp(expected, actual, shallow=False)
        return [] if same else [str(actual.relative_to(ROOT))]
    comparison = filecmp.dircmp(expected, actual, ignore=["__pycache__", ".ruff_cache"])
    problems = [f"{actual.relative_to(ROOT)}/{n}: missing (stale or not committed)" for n in comparison.left_only]
    problems += [f"{actual.relative_to(ROOT)}/{n}: not generated (stale file)" for n in comparison.right_only]
    _, mismatch, errors = filecmp.cmpfiles(expected, actual, comparison.common_files, shallow=False)
    problems += [f"{actual.relative_to(ROOT)}/{n}: differs" for n in mismatch + errors]
    for sub in comparison.common_dirs:
        problems += _differences(expected / sub, actual / sub)
    return problems


def check() -> int:
    with tempfile.TemporaryDirectory(prefix="agentic-driver-gen-") as scratch:
        fresh = Path(scratch)
        generate_all(fresh)
        problems = []
        for tree in (SERVED_SPEC, SERVER_MODELS, PYTHON_CLIENT):
            if not (ROOT / tree).exists():
                problems.append(f"{tree}: missing")
                continue
            problems += _differences(fresh / tree, ROOT / tree)
    if problems:
        print("Generated code is out of date; run `make generate` and commit:", *problems, sep="\n  ")
        return 1
    print("Generated code matches openapi.yaml.")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="fail if any generated tree differs")
    options = parser.parse_args()
    if options.check:
        return check()
    generate_all(ROOT)
    print("Regenerated", SERVED_SPEC, SERVER_MODELS, "and", PYTHON_CLIENT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
