#!/usr/bin/env python3
"""Checks exported puzzles with Fairy-Stockfish's own Python binding (pyffish): every FEN
validates, every move is legal, every attacker move gives check, and the last position has
no legal move (mate, the side to move being in check). Reads pychess NDJSON records or EPD
lines (by the file's extension) and prints one line per failure; exits 1 if any failed."""

import json
import sys

import pyffish as sf


def records(path):
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            if path.endswith(".epd"):
                fields = line.split(";")
                pv = next(x for x in fields if x.startswith("pv "))[3:].split(",")
                bm = next(x for x in fields if x.startswith("bm "))[3:]
                if bm != pv[0]:
                    yield n, fields[0], pv, f"bm {bm} is not the first pv move"
                else:
                    yield n, fields[0], pv, None
            else:
                r = json.loads(line)
                problem = None
                for key in ("_id", "v", "f", "m", "t", "e", "s", "uploaded_by"):
                    if key not in r:
                        problem = f"no {key}"
                moves = r["m"].split(",")
                if r.get("v") != "torishogi" or r.get("t") != "mate":
                    problem = "not a torishogi mate"
                if r.get("e") != f"#{(len(moves) + 1) // 2}":
                    problem = f"e {r.get('e')} for {len(moves)} moves"
                if len(r.get("_id", "")) != 5 or not r["_id"].isalnum():
                    problem = f"_id {r.get('_id')}"
                yield n, r["f"], moves, problem


def check(fen, moves):
    if sf.validate_fen(fen, "torishogi") != 1:
        return "the FEN does not validate"
    for i, m in enumerate(moves):
        if m not in sf.legal_moves("torishogi", fen, moves[:i]):
            return f"move {i + 1} {m} is not legal"
        if i % 2 == 0 and not sf.gives_check("torishogi", fen, moves[: i + 1]):
            return f"move {i + 1} {m} does not check"
    if len(moves) % 2 == 0:
        return "the line does not end with the attacker's move"
    if sf.legal_moves("torishogi", fen, moves):
        return "the last position is not mate"
    if not sf.gives_check("torishogi", fen, moves):
        return "the last position is not check"
    return None


def main():
    failed = 0
    total = 0
    for path in sys.argv[1:]:
        for n, fen, moves, problem in records(path):
            total += 1
            problem = problem or check(fen, moves)
            if problem:
                failed += 1
                print(f"{path}:{n}: {problem}")
    print(f"{total} checked, {failed} failed")
    sys.exit(1 if failed or total == 0 else 0)


main()
