"""Positions: reading, moves, check and mate, diagrams and perft, against the reference
counts and against Fairy-Stockfish's legal moves (pyffish) on random positions."""

import random

import pyffish
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toritsume
from toritsume import Position

START = "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR b - 1"


def test_startpos_reads_and_writes():
    p = Position("startpos")
    assert p.sfen() == START
    assert Position(START) == p
    assert Position(p.fen()) == p
    assert p.turn == "black"
    assert not p.is_check() and not p.is_checkmate()
    assert repr(p) == f'Position("{START}")'
    assert "Black to move" in str(p)


def test_perft_matches_the_reference_counts():
    # tests/data/perft.tsv: Fairy-Stockfish's counts of the start position.
    p = Position("startpos")
    assert [p.perft(d) for d in (1, 2, 3)] == [17, 288, 5430]
    assert len(p.legal_moves()) == 17


def test_moves_are_played_and_checked():
    p = Position("startpos moves 7e7d")
    assert p.turn == "white"
    q = Position("startpos")
    q.push("7e7d")
    assert p == q
    # A position changes as moves are played: it is not hashable.
    with pytest.raises(TypeError):
        hash(p)
    with pytest.raises(ValueError):
        q.push("7e7d")
    # A crane dropped on 4b mates the phoenix on 4a, the crane on 4c guarding it.
    m = Position("3k3/7/3C3/7/7/7/7 b C 1")
    assert "C*4b" in m.checks()
    assert set(m.checks()) <= set(m.legal_moves())
    m.push("C*4b")
    assert m.is_check() and m.is_checkmate()
    assert m.legal_moves() == []


def test_svg_is_a_document():
    svg = Position("startpos").svg()
    assert svg.lstrip().startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "<svg" in Position("startpos").svg(kanji=True)


@pytest.mark.parametrize("bad", ["", "xx", "8/7/7/7/7/7/7 b - 1", "startpos moves 1a1b"])
def test_bad_positions_are_value_errors(bad):
    with pytest.raises(ValueError):
        Position(bad)


def fairy_to_usi(m):
    """Fairy-Stockfish's move (files a-g from Black's left, ranks 1-7 from Black's side,
    drops `S@a6`) in USI."""
    def square(f, r):
        return f"{7 - (ord(f) - ord('a'))}{chr(ord('a') + 7 - int(r))}"
    if m[1] == "@":
        return f"{m[0].upper()}*{square(m[2], m[3])}"
    return square(m[0], m[1]) + square(m[2], m[3]) + ("+" if m.endswith("+") else "")


def swallow_drop_mate(fen, move):
    """Whether `move` (Fairy-Stockfish's) drops a swallow and mates."""
    if not move.upper().startswith("S@"):
        return False
    return pyffish.gives_check("torishogi", fen, [move]) and not pyffish.legal_moves(
        "torishogi", fen, [move]
    )


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 80))
def test_legal_moves_are_fairy_stockfishs(seed, plies):
    # A random game from the start; at its end our legal moves are Fairy-Stockfish's, less
    # the swallow drops that mate (legal there, not under the no-swallow-drop-mate rule).
    rng = random.Random(seed)
    p = Position("startpos")
    for _ in range(plies):
        moves = p.legal_moves()
        if not moves:
            break
        p.push(rng.choice(moves))
    fen = p.fen()
    theirs = {fairy_to_usi(m): m for m in pyffish.legal_moves("torishogi", fen, [])}
    ours = set(p.legal_moves())
    assert ours <= set(theirs), sorted(ours - set(theirs))
    for usi in set(theirs) - ours:
        assert swallow_drop_mate(fen, theirs[usi]), usi
    for usi in p.checks():
        assert pyffish.gives_check("torishogi", fen, [theirs[usi]]), usi


def test_the_package_says_its_version():
    assert toritsume.__version__ == "0.1.0"
