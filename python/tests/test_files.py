"""read_problems and export: the records of any file the program reads, and the text its
export writes."""

import pytest

import toritsume
from conftest import CLASSIC, ROOT, json_lines, run


def test_read_problems_reads_the_records():
    records = toritsume.read_problems(CLASSIC)
    lines = [l for l in CLASSIC.read_text().splitlines() if l.strip() and not l.startswith("#")]
    assert [r["sfen"] for r in records] == [json_lines(l)[0]["sfen"] for l in lines]


def test_read_problems_reads_the_puzzle_formats():
    export = ROOT / "problems" / "export"
    csv = toritsume.read_problems(export / "torishogi-puzzles.csv")
    epd = toritsume.read_problems(export / "torishogi-puzzles.epd")
    assert len(csv) > 2000 and len(epd) > 2000
    assert all("sfen" in r and r["moves"] for r in csv[:50])


def test_a_bad_line_is_named(tmp_path):
    path = tmp_path / "set.jsonl"
    path.write_text('{"sfen": "1k5/2S4/7/FC5/7/7/7 b FRS 1"}\n{"sfen": "nonsense"}\n')
    with pytest.raises(ValueError) as e:
        toritsume.read_problems(path)
    assert "line 2 of" in str(e.value)


@pytest.mark.parametrize("fmt", ["sfen", "csv", "epd", "pychess"])
def test_export_writes_what_the_program_writes(fmt):
    records = toritsume.read_problems(CLASSIC)
    with pytest.warns(UserWarning):
        # The classic set holds no-mates and unsound problems, each left out with a reason.
        mine = toritsume.export(records, fmt, threads=2)
    cli = run("export", "--format", fmt, CLASSIC, "--out", "-", "--threads", "2")
    assert mine == cli
