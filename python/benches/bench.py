"""The Python package's speed against the program's, side by side in one run:

- a mate in 1 through `toritsume.solve` (median of 300 calls), to set beside criterion's
  `report/mate_in_1_from_text` (the same work from Rust: `cargo bench --bench solve -- report`);
- `solve_many` over problems/generated.jsonl on two threads against `toritsume solve --json
  --threads 2` on the same file (best of 3 each);
- `generate` against `toritsume generate` with the same options (best of 3 each).

Run from the repository root with the package installed and the program built:
`python python/benches/bench.py [path/to/toritsume]`.
"""

import statistics
import subprocess
import sys
import time

import toritsume

PROGRAM = sys.argv[1] if len(sys.argv) > 1 else "target/release/toritsume"
SET = "problems/generated.jsonl"


def best(f, n=3):
    times = []
    for _ in range(n):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    calls = []
    for _ in range(300):
        start = time.perf_counter()
        toritsume.solve("3k3/7/3C3/7/7/7/7 b C 1")
        calls.append(time.perf_counter() - start)
    print(f"mate in 1 through toritsume.solve: {statistics.median(calls) * 1e3:.3f} ms (median of 300)")

    records = toritsume.read_problems(SET)
    py = best(lambda: toritsume.solve_many(records, threads=2))
    cli = best(
        lambda: subprocess.run(
            [PROGRAM, "solve", "--json", "--threads", "2", "--quiet", SET],
            check=True, capture_output=True,
        )
    )
    print(f"solve_many over {SET} ({len(records)}), 2 threads: {py:.2f} s; the program: {cli:.2f} s; ratio {py / cli:.3f}")

    args = dict(plies=(5, 9), count=30, seed=7, threads=2)
    py = best(lambda: list(toritsume.generate(**args)))
    cli = best(
        lambda: subprocess.run(
            [PROGRAM, "generate", "--plies", "5..9", "--count", "30", "--seed", "7", "--threads", "2", "--quiet"],
            check=True, capture_output=True,
        )
    )
    print(f"generate 30 problems of 5..9 plies, 2 threads: {py:.2f} s; the program: {cli:.2f} s; ratio {py / cli:.3f}")


if __name__ == "__main__":
    main()
