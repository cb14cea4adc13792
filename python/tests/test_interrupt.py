"""Ctrl-C during a search or a generation raises KeyboardInterrupt within a second, and the
interpreter goes on as before."""

import subprocess
import sys

import pytest

SCRIPT = """
import os, signal, threading, time
import toritsume
threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
start = time.perf_counter()
try:
    {work}
    print("finished")
except KeyboardInterrupt:
    print("interrupted", time.perf_counter() - start)
print("after", toritsume.solve("3k3/7/3C3/7/7/7/7 b C 1").plies)
"""

# A mate in 11 whose proof takes several seconds (benches/data/hard.jsonl).
LONG = "7/7/5C1/3k1C1/7/7/6R b FCP2LRS 1"


@pytest.mark.parametrize(
    "work",
    [
        f"toritsume.solve({LONG!r})",
        f"toritsume.verify({LONG!r})",
        "list(toritsume.generate(plies=(21, 31), count=50, seed=1, threads=2))",
        "toritsume.Position('startpos').perft(7)",
    ],
)
def test_ctrl_c_stops_the_work_and_leaves_python_usable(work):
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(work=work)], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.split("\n")
    assert lines[0].startswith("interrupted"), out.stdout
    assert float(lines[0].split()[1]) < 2.0, out.stdout
    assert lines[1] == "after 1"
