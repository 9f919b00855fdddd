"""Shared helpers: the repository's root and its `pegflip` binary, which the tests compare with."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def binary() -> Path:
    """The command-line tool built from the same source (`cargo build --release`)."""
    path = Path(os.environ.get("PEGFLIP_BIN", ROOT / "target" / "release" / "pegflip"))
    if not path.exists():
        pytest.fail(f"{path} is missing: run `cargo build --release` first, or set PEGFLIP_BIN")
    return path


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """Runs the command-line tool in the repository's root."""
    return subprocess.run(
        [str(binary()), *args], cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=600
    )
