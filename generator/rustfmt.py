"""The one rustfmt step of the table generators that write Rust (``error_rust.py``, ``operations.py``).

Beside ``outputs.gofmt``: a generated Rust file is what ``cargo fmt`` would leave (the crate's own rustfmt.toml
and edition), so ``cargo fmt --check`` passes on it and the rendering is the same on every machine with the
toolchain ``make generate`` needs anyway.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CRATE = ROOT / "clients" / "rust"
EDITION = "2021"
"""The crate's ``edition`` (clients/rust/Cargo.toml), which ``cargo fmt`` passes to rustfmt."""


def rustfmt(source: str, what: str, error: type[BaseException]) -> str:
    """``source`` as ``cargo fmt`` writes it in clients/rust; ``error(message)``, naming ``what``, when rustfmt is
    missing or refuses it."""
    command = ["rustfmt", "--edition", EDITION, "--config-path", str(CRATE / "rustfmt.toml")]
    try:
        done = subprocess.run(command, input=source, capture_output=True, text=True, check=False, timeout=60)
    except FileNotFoundError:
        raise error(f"rustfmt is needed for {what} (rustup component add rustfmt)") from None
    if done.returncode != 0:
        raise error(f"rustfmt refused {what}: {done.stderr}")
    return done.stdout
