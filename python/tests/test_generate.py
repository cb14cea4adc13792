"""generate: the program's records, in its order, with the same seed and options; its
shards run on a local Dask cluster give, merged, what the program's shards give merged."""

import json
import pathlib

import pytest

import toritsume
from conftest import json_lines, run


def test_generate_gives_the_programs_records():
    mine = list(toritsume.generate(plies=(3, 5), count=4, seed=3, threads=2))
    cli = json_lines(run("generate", "--plies", "3..5", "--count", "4", "--seed", "3", "--threads", "2", "--quiet"))
    assert mine == cli and len(mine) == 4
    # The records do not depend on the threads.
    assert list(toritsume.generate(plies=(3, 5), count=4, seed=3, threads=1)) == mine


def test_generate_takes_the_programs_options():
    mine = list(
        toritsume.generate(
            plies=5, count=2, seed=9, threads=2, rating=(600, 2800), exclude_themes=["finalDual"],
            family_limit=2, shape_limit=1, nodes=100_000,
        )
    )
    cli = json_lines(
        run(
            "generate", "--plies", "5", "--count", "2", "--seed", "9", "--threads", "2", "--quiet",
            "--rating", "600..2800", "--exclude-themes", "finalDual", "--family-limit", "2",
            "--nodes", "100000",
        )
    )
    assert mine == cli
    assert all(r["plies"] == 5 for r in mine)


@pytest.mark.parametrize(
    "options, says",
    [
        ({"plies": (5, 3), "count": 1}, "runs backwards"),
        ({"plies": 4, "count": 1}, "odd number of plies"),
        ({"plies": 5, "count": 0}, "at least 1"),
        ({"plies": 5, "count": 1, "shard": (4, 4)}, "K must be below N"),
        ({"plies": 5, "count": 1, "themes": ["noSuchTheme"]}, "noSuchTheme"),
        ({"plies": 5, "count": 1, "final_duals": "maybe"}, "final_duals"),
    ],
)
def test_impossible_runs_are_refused_before_they_start(options, says):
    with pytest.raises(ValueError) as e:
        toritsume.generate(**options)
    assert says in str(e.value)


def shard(k):
    import toritsume as t

    return list(t.generate(plies=(3, 5), count=3, seed=5, threads=1, shard=(k, 4)))


def test_shards_on_a_dask_cluster_merge_to_the_programs(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            shards = client.gather(client.map(shard, range(4)))
    files = []
    for k, records in enumerate(shards):
        cli = json_lines(
            run("generate", "--plies", "3..5", "--count", "3", "--seed", "5", "--threads", "1", "--quiet", "--shard", f"{k}/4")
        )
        assert records == cli, k
        path = tmp_path / f"shard{k}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
        files.append(path)
    merged = json_lines(run("merge", *files, "--out", "-"))
    cli_files = []
    for k in range(4):
        path = tmp_path / f"cli{k}.jsonl"
        run("generate", "--plies", "3..5", "--count", "3", "--seed", "5", "--threads", "1", "--quiet", "--shard", f"{k}/4", "--out", path)
        cli_files.append(path)
    assert merged == json_lines(run("merge", *cli_files, "--out", "-"))
    assert len(merged) >= 3


def test_leaving_the_loop_stops_the_run_at_once():
    import time

    run_ = toritsume.generate(plies=(21, 31), count=1000, seed=1, threads=2)
    start = time.perf_counter()
    run_.close()
    assert time.perf_counter() - start < 0.5


def test_a_run_stopped_at_the_candidate_limit_says_so():
    with pytest.warns(UserWarning, match="candidate limit"):
        records = list(toritsume.generate(plies=(21, 31), count=5, seed=1, threads=2, max_candidates=2))
    assert len(records) < 5
