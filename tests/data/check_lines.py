#!/usr/bin/env python3
"""Checks solved main lines with Fairy-Stockfish's own Python binding (pyffish). Each line
of the input is a JSON record: `fen` (the problem, both hands stated), `plies`, `moves`
(the main line) and `left_out` (`{ply, move}`: the useless interpositions the line leaves
out, a ply numbering the defender move they stand in for), moves in Fairy-Stockfish's
notation. The line has `plies` moves, each legal, each attacker move giving check; each
left-out move is legal where it stands; and at the end the side to move is in check with
no legal move but left-out interpositions of the last ply (Fairy-Stockfish counts every
interposition as a defence). Prints one line per failure; exits 1 if any failed."""

import json
import sys

import pyffish as sf

V = "torishogi"


def check(r):
    fen, moves, plies = r["fen"], r["moves"], r["plies"]
    if sf.validate_fen(fen, V) != 1:
        return "the FEN does not validate"
    if len(moves) != plies:
        return f"{len(moves)} moves for a mate in {plies}"
    left = {}
    for u in r["left_out"]:
        left.setdefault(u["ply"], set()).add(u["move"])
    for i, m in enumerate(moves):
        legal = sf.legal_moves(V, fen, moves[:i])
        if m not in legal:
            return f"move {i + 1} {m} is not legal"
        if i % 2 == 0 and not sf.gives_check(V, fen, moves[: i + 1]):
            return f"move {i + 1} {m} does not check"
        for u in left.get(i + 1, ()):
            if u not in legal:
                return f"{u}, left out at ply {i + 1}, is not legal there"
    end = sf.legal_moves(V, fen, moves)
    if not sf.gives_check(V, fen, moves):
        return "the last move does not check"
    for u in left.get(plies + 1, ()):
        if u not in end:
            return f"{u}, left out at the end, is not legal there"
    rest = set(end) - left.get(plies + 1, set())
    if rest:
        return f"not mate at the end: {sorted(rest)[:5]} answer"
    return None


def main():
    failed = 0
    n = 0
    with open(sys.argv[1], encoding="utf-8") as f:
        for k, line in enumerate(f, 1):
            if not line.strip():
                continue
            n += 1
            problem = check(json.loads(line))
            if problem:
                failed += 1
                print(f"line {k}: {problem}")
    print(f"{n} lines checked, {failed} refused")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
