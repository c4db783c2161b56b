"""The breaking-change gate: openapi.yaml against the baseline of the last released contract.

    python contract/breaking.py            # the gate (make check-breaking, part of make test)
    python contract/breaking.py --verbose  # also list the allowed additions
    python contract/breaking.py --release  # after releasing info.version: the document becomes the baseline

oasdiff (pinned in the Makefile, installed from the Go module proxy into .tools/bin) lists what changed
between ``contract/baseline/openapi.yaml`` and ``openapi.yaml``. A change oasdiff rates ERR breaks clients
written against the baseline. The gate passes when there is none, or when every one is declared:

- ``info.version`` was bumped past the baseline's as semantic versioning requires for a break (the
  major version from 1.0 on; before 1.0, the minor or the major);
- CHANGELOG.md has a section ``## [<new version>]`` with a ``### Breaking`` part that names every
  operation broken as code, `` `operationId` `` (a change outside any operation by its path).

``contract/oasdiff-levels.txt`` lowers to WARN the additions the contract's evolution policy allows
without a version bump, which oasdiff 1.37 rates ERR by default: a new value of an enum in a response
(a new error code, a new status) and a new member of a union in a response (a new event type). The
policy is that clients keep a value or event they do not know (every SDK's enums are open), so a
response that grows this way breaks none of them. Those are counted, not listed (``--verbose`` lists
them); everything else oasdiff reports at ERR fails the gate. Removals and narrowing stay errors, and so
do additions to requests that the old host would refuse.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "openapi.yaml"
BASELINE = ROOT / "contract" / "baseline" / "openapi.yaml"
CHANGELOG = ROOT / "CHANGELOG.md"
LEVELS = ROOT / "contract" / "oasdiff-levels.txt"
OASDIFF = ROOT / ".tools" / "bin" / "oasdiff"
ERR = 3
VERSION = re.compile(r"^(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$")


@dataclass(frozen=True)
class Change:
    rule: str
    level: int
    text: str
    where: str
    """The operationId, or the path (or section) for a change outside any operation."""
    operation: str

    def line(self) -> str:
        return f"  - {self.where}{self.operation}: {self.text} [{self.rule}]"


def changes(baseline: Path, spec: Path, oasdiff: Path = OASDIFF, levels: Path | None = LEVELS) -> list[Change]:
    """What oasdiff reports at WARN or ERR between the two documents (with our levels, unless None)."""
    command = [str(oasdiff), "breaking", str(baseline), str(spec), "--format", "json", "--allow-external-refs=false"]
    if levels is not None:
        command += ["--severity-levels", str(levels)]
    if not oasdiff.is_file():
        raise RuntimeError(f"{oasdiff} is missing: `make setup-oasdiff` builds the pinned oasdiff")
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"oasdiff failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")
    found: list[Change] = []
    for item in json.loads(done.stdout or "[]"):
        operation = f" ({item['operation']} {item['path']})" if item.get("operation") else ""
        where = item.get("operationId") or item.get("path") or item.get("section") or "document"
        found.append(Change(item["id"], int(item["level"]), item["text"], str(where), operation))
    return sorted(set(found), key=lambda change: (change.where, change.rule, change.text))


def _version(document: Path) -> str:
    loaded: Any = yaml.safe_load(document.read_text(encoding="utf-8"))
    return str(loaded["info"]["version"])


def _parts(version: str) -> tuple[int, int, int]:
    matched = VERSION.match(version)
    if matched is None:
        raise ValueError(f"info.version {version!r} is not semantic (MAJOR.MINOR.PATCH)")
    major, minor, patch = (int(part) for part in matched.groups())
    return major, minor, patch


def bump_declares_a_break(base: str, revision: str) -> bool:
    """Whether going from ``base`` to ``revision`` is a version step that may break clients."""
    old, new = _parts(base), _parts(revision)
    if old[0] >= 1:
        return new[0] > old[0]
    return new[:2] > old[:2]


def breaking_section(changelog: str, version: str) -> str | None:
    """The text of the ``### Breaking`` part of the ``## [version]`` section, if the changelog has one."""
    section = re.search(rf"^## \[?{re.escape(version)}\]?[^\n]*\n(.*?)(?=^## |\Z)", changelog, re.M | re.S)
    if section is None:
        return None
    part = re.search(r"^### Breaking[^\n]*\n(.*?)(?=^### |\Z)", section.group(1), re.M | re.S | re.I)
    return None if part is None else part.group(1)


def gate(
    baseline: Path = BASELINE,
    spec: Path = SPEC,
    changelog: Path = CHANGELOG,
    oasdiff: Path = OASDIFF,
    verbose: bool = False,
) -> tuple[bool, list[str]]:
    """Whether the gate passes, and what it has to say."""
    found = changes(baseline, spec, oasdiff)
    breaking = [change for change in found if change.level >= ERR]
    allowed = [change for change in found if change.level < ERR]
    report = []
    if allowed:
        report.append(
            f"breaking: {len(allowed)} changes the evolution policy allows (new enum values, new union members)"
        )
        if verbose:
            report += [change.line() for change in allowed]
    base_version, version = _version(baseline), _version(spec)
    if not breaking:
        report.append(f"breaking: no breaking change against the baseline of {base_version}")
        return True, report
    report.append(f"breaking: {len(breaking)} breaking changes against the baseline of {base_version}:")
    report += [change.line() for change in breaking]
    if not bump_declares_a_break(base_version, version):
        major, minor, _ = _parts(base_version)
        step = f"{major + 1}.0.0" if major >= 1 else f"{major}.{minor + 1}.0"
        report.append(
            f"breaking: info.version is {version}: a break needs at least {step}, and CHANGELOG.md naming it "
            f"under ## [{step}] / ### Breaking"
        )
        return False, report
    part = breaking_section(changelog.read_text(encoding="utf-8"), version)
    if part is None:
        report.append(f"breaking: {changelog.name} has no ### Breaking part in a ## [{version}] section")
        return False, report
    unnamed = sorted({change.where for change in breaking if f"`{change.where}`" not in part})
    if unnamed:
        named = ", ".join(f"`{name}`" for name in unnamed)
        report.append(f"breaking: the ### Breaking part of ## [{version}] does not name: {named}")
        return False, report
    report.append(f"breaking: declared: version {version}, named in {changelog.name}")
    return True, report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--spec", type=Path, default=SPEC)
    parser.add_argument("--baseline", type=Path, default=BASELINE)
    parser.add_argument("--changelog", type=Path, default=CHANGELOG)
    parser.add_argument("--oasdiff", type=Path, default=OASDIFF)
    parser.add_argument("--verbose", action="store_true", help="list the allowed changes too")
    parser.add_argument("--release", action="store_true", help="make the document the new baseline")
    args = parser.parse_args(argv)
    if args.release:
        shutil.copyfile(args.spec, args.baseline)
        print(f"breaking: {args.baseline} is now the baseline of release {_version(args.spec)}")
        return 0
    try:
        passed, report = gate(args.baseline, args.spec, args.changelog, args.oasdiff, args.verbose)
    except (RuntimeError, ValueError) as error:
        print(f"breaking: {error}", file=sys.stderr)
        return 2
    print("\n".join(report))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
