"""Regenerate every tree that comes from openapi.yaml, or check that none has drifted.

    python generator/generate.py          # write server models and clients
    python generator/generate.py --check  # generate into a temporary tree; fail on any difference

Generated trees (each file carries a 'DO NOT EDIT' header):

- server/src/agentic_driver/models.py     datamodel-code-generator (pydantic v2)
- clients/python/agentic_driver_client/   openapi-python-client
- server/src/agentic_driver/http/openapi.yaml   a byte-identical copy the host serves
- clients/typescript/src/generated/       @hey-api/openapi-ts (root package.json pins it)
- clients/go/oas_*_gen.go                 ogen (generator/go/go.mod pins it), from generator/go/prepare.py's
                                          copy of the spec; the other .go files there are hand-written
- clients/rust/src/generated.rs           progenitor (generator/rust/codegen/Cargo.lock pins it), from
                                          generator/rust/downconvert.py's OpenAPI 3.0 form of the spec

The TypeScript, Go and Rust generators read generator/event_streams.py's copy of the spec, in which each
event stream's schema is its messages' `data` (RunEvent), the form they model event streams in.

Needs the repository's .venv and node_modules (`make setup`), Go and cargo.
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
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "openapi.yaml"
GENERATOR = ROOT / "generator"
SERVER_MODELS = Path("server/src/agentic_driver/models.py")
PYTHON_CLIENT = Path("clients/python/agentic_driver_client")
SERVED_SPEC = Path("server/src/agentic_driver/http/openapi.yaml")
TYPESCRIPT_CLIENT = Path("clients/typescript/src/generated")
GO_CLIENT = Path("clients/go")
GO_GENERATED = "oas_*_gen.go"  # ogen's file names; only these are generated in clients/go
GO_PACKAGE = "agenticdriver"
RUST_CLIENT = Path("clients/rust/src/generated.rs")
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


def optional_and_nullable(node: object, where: str = "") -> list[str]:
    """Every property of the spec that is both optional and nullable, by its path. The Python client reads an
    absent property as None (generator/python/templates/types.py.jinja), which would blur such a property's
    absence with its null, so there must be none."""
    found: list[str] = []
    if isinstance(node, dict):
        required = node.get("required") if isinstance(node.get("required"), list) else []
        properties = node.get("properties") if isinstance(node.get("properties"), dict) else {}
        found += [
            f"{where}/properties/{name}"
            for name, schema in properties.items()
            if name not in required and _nullable(schema)
        ]
        for key, value in node.items():
            found += optional_and_nullable(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += optional_and_nullable(value, f"{where}/{index}")
    return found


def _nullable(schema: object) -> bool:
    if not isinstance(schema, dict):
        return False
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    return any(_nullable(choice) for key in ("oneOf", "anyOf") for choice in schema.get(key) or [])


def generate_python_client(target: Path) -> None:
    blurred = optional_and_nullable(yaml.safe_load(SPEC.read_text(encoding="utf-8")))
    if blurred:
        raise SystemExit(
            "openapi.yaml: these properties are optional and nullable, which the Python client cannot tell apart "
            "(it reads absent as None): make each required, or not nullable:\n  " + "\n  ".join(blurred)
        )
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


def _run_quietly(what: str, command: list[str], cwd: Path, env: dict[str, str] | None = None) -> None:
    """Run a generator; show its output only when it fails (ogen and cargo are chatty)."""
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr)
        raise SystemExit(f"{what} failed (above): {shlex.join(command)}")


def events_as_data(scratch: Path) -> Path:
    """generator/event_streams.py's copy of the spec (event-stream schemas are their events' data)."""
    prepared = scratch / "openapi-events-as-data.json"
    subprocess.run([sys.executable, str(GENERATOR / "event_streams.py"), str(SPEC), str(prepared)], check=True)
    return prepared


def generate_typescript_client(target: Path, spec: Path) -> None:
    tool = ROOT / "node_modules" / ".bin" / "openapi-ts"
    if not tool.exists():
        raise SystemExit(f"{tool.relative_to(ROOT)} is missing: run `npm ci` (or `make setup`)")
    if target.exists():
        shutil.rmtree(target)
    env = _env() | {"AGENTIC_DRIVER_SPEC": str(spec), "AGENTIC_DRIVER_TS_OUTPUT": str(target)}
    config = GENERATOR / "typescript" / "openapi-ts.config.mjs"
    _run_quietly("openapi-ts", [str(tool), "--file", str(config), "--no-log-file"], env=env, cwd=ROOT)


def generate_go_client(target: Path, spec: Path, scratch: Path) -> None:
    prepared = scratch / "openapi.json"
    subprocess.run([sys.executable, str(GENERATOR / "go" / "prepare.py"), str(spec), str(prepared)], check=True)
    target.mkdir(parents=True, exist_ok=True)
    command = ["go", "tool", "ogen", "-config", "ogen.yml", "-package", GO_PACKAGE, "-target", str(target), "-clean"]
    _run_quietly("ogen", [*command, str(prepared)], cwd=GENERATOR / "go")


def generate_rust_client(target: Path, spec: Path, scratch: Path) -> None:
    converted = scratch / "openapi-3.0.json"
    subprocess.run([sys.executable, str(GENERATOR / "rust" / "downconvert.py"), str(spec), str(converted)], check=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    manifest = GENERATOR / "rust" / "codegen" / "Cargo.toml"
    command = ["cargo", "run", "--quiet", "--locked", "--manifest-path", str(manifest), "--"]
    _run_quietly("progenitor", [*command, str(converted), str(target)], cwd=ROOT)


def generate_all(root: Path) -> None:
    (root / SERVED_SPEC).parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SPEC, root / SERVED_SPEC)
    generate_server_models(root / SERVER_MODELS)
    generate_python_client(root / PYTHON_CLIENT)
    with tempfile.TemporaryDirectory(prefix="agentic-driver-spec-") as scratch:
        events = events_as_data(Path(scratch))
        generate_typescript_client(root / TYPESCRIPT_CLIENT, events)
        generate_go_client(root / GO_CLIENT, events, Path(scratch))
        generate_rust_client(root / RUST_CLIENT, events, Path(scratch))


@dataclass(frozen=True)
class Tree:
    """A generated tree: a file, a directory, or (with ``pattern``) the matching files of a shared directory."""

    path: Path
    pattern: str | None = None


TREES = (
    Tree(SERVED_SPEC),
    Tree(SERVER_MODELS),
    Tree(PYTHON_CLIENT),
    Tree(TYPESCRIPT_CLIENT),
    Tree(GO_CLIENT, GO_GENERATED),
    Tree(RUST_CLIENT),
)


def _pattern_differences(expected: Path, actual: Path, pattern: str) -> list[str]:
    fresh = {path.name for path in expected.glob(pattern)}
    committed = {path.name for path in actual.glob(pattern)}
    where = actual.relative_to(ROOT)
    problems = [f"{where}/{name}: missing (stale or not committed)" for name in sorted(fresh - committed)]
    problems += [f"{where}/{name}: not generated (stale file)" for name in sorted(committed - fresh)]
    for name in sorted(fresh & committed):
        if not filecmp.cmp(expected / name, actual / name, shallow=False):
            problems.append(f"{where}/{name}: differs")
    return problems


def _differences(expected: Path, actual: Path) -> list[str]:
    if expected.is_file() or actual.is_file():
        same = expected.is_file() and actual.is_file() and filecmp.cmp(expected, actual, shallow=False)
        return [] if same else [f"{actual.relative_to(ROOT)}: differs"]
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
        for tree in TREES:
            if not (ROOT / tree.path).exists():
                problems.append(f"{tree.path}: missing")
            elif tree.pattern is not None:
                problems += _pattern_differences(fresh / tree.path, ROOT / tree.path, tree.pattern)
            else:
                problems += _differences(fresh / tree.path, ROOT / tree.path)
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
    print("Regenerated", *(f"{tree.path}/{tree.pattern}" if tree.pattern else tree.path for tree in TREES), sep="\n  ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
