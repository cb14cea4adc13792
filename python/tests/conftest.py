"""What the tests share: the repository's files, the `toritsume` program they compare the
package with (TORITSUME_BIN, else target/release/toritsume), and running it."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLASSIC = ROOT / "problems" / "classic.jsonl"


def program():
    path = pathlib.Path(os.environ.get("TORITSUME_BIN", ROOT / "target" / "release" / "toritsume"))
    if not path.exists():
        pytest.fail(f"the toritsume program is not at {path}: build it (cargo build --release) or set TORITSUME_BIN")
    return str(path)


def run(*args, stdin=None):
    """The program's standard output; a failure shows its standard error."""
    out = subprocess.run(
        [program(), *map(str, args)], input=stdin, capture_output=True, text=True, cwd=ROOT
    )
    assert out.returncode in (0, 1), out.stderr
    return out.stdout


def json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def without(report, *fields):
    """A report's JSON object without the fields that vary from run to run or name where
    the problem came from."""
    return {k: v for k, v in report.items() if k not in fields}
