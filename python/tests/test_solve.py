"""solve, solve_many and verify: the reports are the program's JSON objects, field for
field; bad input and records that claim what is not so are errors; two Python threads
solve on two cores at once."""

import inspect
import json
import threading
import time

import pytest

import toritsume
from conftest import CLASSIC, json_lines, run, without

MATE_7 = "1k5/2S4/7/FC5/7/7/7 b FRS 1"


def test_a_mate_in_7():
    r = toritsume.solve(MATE_7)
    assert (r.status, r.plies, r.minimal, r.complete) == ("mate", 7, True, True)
    assert r.moves == ["F*6b", "6a6b", "7d6c", "6b7a", "S*7b", "7a6a", "R*6b"]
    assert r["status"] == "mate" and "moves" in r
    assert r.to_dict()["moves"] == r.moves
    with pytest.raises(AttributeError):
        r.no_such_field


def test_a_report_is_the_programs_json():
    mine = toritsume.solve(MATE_7, variations=True, tries=True).to_dict()
    cli = json_lines(run("solve", "--json", "--threads", "1", "--variations", "--tries", MATE_7))[0]
    assert without(mine, "time_ms", "variations_time_ms") == without(cli, "time_ms", "variations_time_ms")
    v = toritsume.verify(MATE_7, tries=True, variations=True).to_dict()
    cli = json_lines(run("verify", "--json", "--threads", "1", "--tries", "--variations", MATE_7))[0]
    assert without(v, "time_ms", "variations_time_ms") == without(cli, "time_ms", "variations_time_ms")


def test_the_classic_set_gives_the_programs_reports():
    # Each record solved and verified from Python (given as the dict read from the file)
    # is the program's report of the same line, where it came from aside.
    records = toritsume.read_problems(CLASSIC)
    cli_solve = json_lines(run("solve", "--json", "--threads", "1", "--quiet", CLASSIC))
    cli_verify = json_lines(run("verify", "--json", "--threads", "1", "--quiet", CLASSIC))
    assert len(records) == len(cli_solve) == len(cli_verify) == 36
    varying = ("time_ms", "origin")
    for record, s, v in zip(records, cli_solve, cli_verify):
        assert without(toritsume.solve(record).to_dict(), *varying) == without(s, *varying)
        assert without(toritsume.verify(record).to_dict(), *varying) == without(v, *varying)
    many = toritsume.solve_many(records, threads=2)
    assert [without(r.to_dict(), *varying, "helper_nodes") for r in many] == [
        without(s, *varying, "helper_nodes") for s in cli_solve
    ]


def test_positions_strings_and_records_are_all_problems():
    p = toritsume.Position(MATE_7)
    assert toritsume.solve(p).moves == toritsume.solve(MATE_7).moves
    record = {"sfen": MATE_7, "plies": 7, "id": "mine"}
    r = toritsume.solve(record)
    assert r.expected_plies == 7 and r.id == "mine"
    assert toritsume.solve(json.dumps(record)).id == "mine"


def test_limits_say_which_stopped_the_search():
    r = toritsume.solve("7/1k5/7/4F2/7/7/7 b F3CRS 1", nodes=1000)
    assert r.status == "unknown" and r.stopped_by == "nodes"
    assert r.stop_reason == "the node limit was reached"
    r = toritsume.solve(MATE_7, max_plies=5)
    assert r.status == "nomate" and r.max_plies == 5


def test_a_record_claiming_what_is_not_so_is_a_record_error():
    with pytest.raises(toritsume.RecordError) as e:
        toritsume.solve({"sfen": MATE_7, "plies": 5, "status": "mate"})
    assert e.value.report.plies == 7
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize(
    "call, says",
    [
        (lambda: toritsume.solve("not a position"), "board field"),
        (lambda: toritsume.solve(MATE_7, nodes=0), "at least 1 node"),
        (lambda: toritsume.solve(MATE_7, defender_hand="mine"), "defender_hand"),
        (lambda: toritsume.solve(MATE_7, time=-1.0), "time must be a positive number"),
        (lambda: toritsume.verify(MATE_7, solution="Z*9z"), "intended solution"),
        (lambda: toritsume.solve_many([MATE_7, "x"]), "problem 1"),
        (lambda: toritsume.read_problems("/no/such/file.jsonl"), "cannot read"),
        (lambda: toritsume.read_problems("-"), "standard input"),
        (lambda: toritsume.export([{"sfen": MATE_7}], "png"), "not one of"),
    ],
)
def test_bad_input_is_a_value_error_with_the_programs_message(call, says):
    with pytest.raises(ValueError) as e:
        call()
    assert says in str(e.value)


def test_a_problem_of_the_wrong_type_is_a_type_error():
    with pytest.raises(TypeError):
        toritsume.solve(7)


def test_the_api_has_the_documented_names():
    params = inspect.signature(toritsume.solve).parameters
    assert list(params)[1:] == [
        "max_plies", "nodes", "time", "hash_mb", "threads", "defender_hand", "variations", "tries",
    ]
    assert params["hash_mb"].default == 256 and params["defender_hand"].default == "rest"
    assert "solution" in inspect.signature(toritsume.verify).parameters
    assert "Solves a mate problem" in (toritsume.solve.__doc__ or "")


# A proven no-mate that takes about half a second on one thread (benches/data/holdout.jsonl).
SLOW = "7/rk1C3/2L4/7/R6/7/7 b CPS 1"


def test_two_python_threads_solve_on_two_cores():
    start = time.perf_counter()
    for _ in range(2):
        toritsume.solve(SLOW, hash_mb=64)
    one = time.perf_counter() - start
    reports = []

    def work():
        reports.append(toritsume.solve(SLOW, hash_mb=64))

    start, cpu = time.perf_counter(), time.process_time()
    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    two, used = time.perf_counter() - start, time.process_time() - cpu
    assert [r.status for r in reports] == ["nomate", "nomate"]
    # Both searches ran at once, the GIL released: the process used well over one core's
    # time while they ran, and they took less than one after the other did.
    assert used > 1.2 * two, (used, two)
    assert two < one, (one, two)


def test_reports_copy_and_pickle():
    import copy
    import pickle

    r = toritsume.solve(MATE_7)
    assert pickle.loads(pickle.dumps(r)) == r
    assert copy.deepcopy(r) == r and copy.copy(r) == r
    e = toritsume.RecordError("wrong", r)
    assert pickle.loads(pickle.dumps(e)).report == r
    p = toritsume.Position(MATE_7)
    assert pickle.loads(pickle.dumps(p)) == p and copy.copy(p) == p and copy.deepcopy(p) == p
