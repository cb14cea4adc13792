"""Tori Shogi mate problems: solve, verify, generate and export them.

The Python face of toritsume, the same library as the ``toritsume`` command line, with the
same answers::

    import toritsume
    report = toritsume.solve("1k5/2S4/7/FC5/7/7/7 b FRS 1")
    print(report.plies, report.moves)          # 7 ['F*6b', '6a6b', ...]
    for record in toritsume.generate(plies=(5, 9), count=100, seed=7):
        ...                                     # the dicts `toritsume generate` writes

Reports are :class:`Report` objects whose attributes are the JSON fields of
``toritsume solve --json`` (or ``verify --json``); ``report.to_dict()`` is that JSON object.
Every search releases the GIL, so threads solve side by side; Ctrl-C stops a search and
raises ``KeyboardInterrupt``; bad input raises ``ValueError`` with the command line's
message.
"""

from __future__ import annotations

import copy as _copy
import json as _json
import os as _os
import warnings as _warnings
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Tuple, Union

from . import _native
from ._native import Position

__all__ = [
    "Position",
    "Report",
    "RecordError",
    "solve",
    "solve_many",
    "verify",
    "generate",
    "read_problems",
    "export",
    "__version__",
]

__version__: str = _native.version()

#: What the solver and verifier take: a position, its text (SFEN, FEN, ``startpos [moves
#: ...]``, a JSON record or an EPD line), or a problem record as a dict.
Problem = Union[Position, str, Mapping[str, Any]]


class Report:
    """A report: its attributes are the fields of the command line's JSON report.

    ``report.plies``, ``report.moves``, ``report["status"]``; ``to_dict()`` gives the whole
    JSON object (a fresh copy), ``"field" in report`` tells whether a field is there.
    """

    __slots__ = ("_fields",)

    def __init__(self, fields: Dict[str, Any]) -> None:
        object.__setattr__(self, "_fields", fields)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._fields[name]
        except KeyError:
            raise AttributeError(f"the report has no field {name!r}") from None

    def __reduce__(self) -> Tuple[Any, ...]:
        return (Report, (self._fields,))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a report cannot be changed; use to_dict() for a copy")

    def __getitem__(self, name: str) -> Any:
        return self._fields[name]

    def __contains__(self, name: object) -> bool:
        return name in self._fields

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __dir__(self) -> List[str]:
        return sorted(set(self._fields) | set(type(self).__dict__))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Report):
            return self._fields == other._fields
        return NotImplemented

    def __repr__(self) -> str:
        keys = [k for k in ("status", "verdict", "plies", "moves") if k in self._fields]
        shown = ", ".join(f"{k}={self._fields[k]!r}" for k in keys)
        return f"Report({shown})"

    def keys(self) -> List[str]:
        """The report's field names."""
        return list(self._fields)

    def to_dict(self) -> Dict[str, Any]:
        """The report as the JSON object the command line prints (a copy)."""
        return _copy.deepcopy(self._fields)


class RecordError(ValueError):
    """A problem record claims what the search contradicts (its length, status, line or
    verdict). The command line prints the report and names the record; here the report is
    ``error.report`` (and, from :func:`solve_many`, every report is ``error.reports``)."""

    def __init__(self, message: str, report: Report, reports: Optional[List[Report]] = None) -> None:
        super().__init__(message)
        self.report = report
        self.reports = reports

    def __reduce__(self) -> Tuple[Any, ...]:
        return (RecordError, (str(self), self.report, self.reports))


def _threads(n: int) -> int:
    """Threads as the command line takes them: 0 is one per core."""
    if n == 0:
        return _os.cpu_count() or 1
    if n < 0:
        raise ValueError(f"threads: {n} is not a number of threads (0 is one per core)")
    return n


def _text(problem: Problem) -> str:
    if isinstance(problem, Position):
        return problem.sfen()
    if isinstance(problem, str):
        return problem
    if isinstance(problem, Mapping):
        return _json.dumps(dict(problem), ensure_ascii=False)
    raise TypeError(
        f"a problem is a Position, a str or a record dict, not {type(problem).__name__}"
    )


def _report(answer: Tuple[str, Optional[str]]) -> Report:
    text, contradiction = answer
    report = Report(_json.loads(text))
    if contradiction is not None:
        raise RecordError(f"{report.origin}: {contradiction}", report)
    return report


def solve(
    position: Problem,
    *,
    max_plies: Optional[int] = None,
    nodes: Optional[int] = None,
    time: Optional[float] = None,
    hash_mb: int = 256,
    threads: int = 1,
    defender_hand: str = "rest",
    variations: bool = False,
    tries: bool = False,
) -> Report:
    """Solves a mate problem, as ``toritsume solve --json`` does.

    ``position`` is a :class:`Position`, its text (SFEN, FEN, ``startpos [moves ...]``, a
    JSON record, an EPD line) or a record dict. ``max_plies``, ``nodes`` and ``time``
    (seconds) are limits (the report says which one stopped the search); ``hash_mb`` is the
    table's size and ``threads`` the search threads (0: one per core); ``defender_hand``
    is ``"rest"`` (every piece left over, the tsume convention) or ``"given"`` (the hand
    the position states).
    ``variations`` and ``tries`` add those parts.

    Returns a :class:`Report` with ``status``, ``plies``, ``moves``, ``hodges``,
    ``minimal``, ``complete``, ``useless_interpositions``, ``nodes`` and the rest. Raises
    ``ValueError`` for bad input and :class:`RecordError` when a record's claims are wrong.
    """
    return _report(
        _native.solve_json(
            _text(position),
            max_plies=max_plies,
            nodes=nodes,
            time=time,
            hash_mb=hash_mb,
            threads=_threads(threads),
            defender_hand=defender_hand,
            variations=variations,
            tries=tries,
        )
    )


def solve_many(
    positions: Iterable[Problem],
    *,
    threads: int = 1,
    max_plies: Optional[int] = None,
    nodes: Optional[int] = None,
    time: Optional[float] = None,
    hash_mb: int = 256,
    defender_hand: str = "rest",
    variations: bool = False,
    tries: bool = False,
) -> List[Report]:
    """Solves many problems, ``threads`` at a time: the reports in input order, as
    ``toritsume solve --json FILE --threads N`` prints them (``hash_mb`` shared out among
    the threads). A problem that cannot be read raises ``ValueError`` naming it (by its
    index) before anything is solved; a record whose claims are wrong raises
    :class:`RecordError` after all are solved."""
    texts = [_text(p) for p in positions]
    answers = _native.solve_many_json(
        texts,
        max_plies=max_plies,
        nodes=nodes,
        time=time,
        hash_mb=hash_mb,
        threads=_threads(threads),
        defender_hand=defender_hand,
        variations=variations,
        tries=tries,
    )
    reports: List[Report] = []
    wrong: Optional[RecordError] = None
    for i, (text, contradiction, error) in enumerate(answers):
        if error is not None:
            raise ValueError(f"problem {i}: {error}")
        report = Report(_json.loads(text))
        if contradiction is not None and wrong is None:
            wrong = RecordError(f"problem {i}: {contradiction}", report)
        reports.append(report)
    if wrong is not None:
        wrong.reports = reports
        raise wrong
    return reports


def verify(
    position: Problem,
    *,
    solution: Optional[str] = None,
    repair: bool = False,
    max_plies: Optional[int] = None,
    nodes: Optional[int] = None,
    time: Optional[float] = None,
    hash_mb: int = 256,
    threads: int = 1,
    defender_hand: str = "rest",
    variations: bool = False,
    tries: bool = False,
) -> Report:
    """Verifies a problem, as ``toritsume verify --json`` does: is its solution unique?

    ``solution`` is the intended solution (USI or Hodges, move numbers allowed); without
    it a record's ``moves`` are taken as intended. ``repair`` asks for the single changes
    after which an unsound problem is sound. The other options are :func:`solve`'s.

    Returns a :class:`Report` with ``verdict`` (``sound``, ``cooked``, ``flawed``,
    ``nomate`` or ``unknown``), ``reasons``, ``cooks``, ``final_duals``,
    ``redundant_pieces``, ``spare`` and the rest."""
    return _report(
        _native.verify_json(
            _text(position),
            solution=solution,
            max_plies=max_plies,
            nodes=nodes,
            time=time,
            hash_mb=hash_mb,
            threads=_threads(threads),
            defender_hand=defender_hand,
            variations=variations,
            tries=tries,
            repair=repair,
        )
    )


def _range(value: Union[int, Tuple[int, int]], name: str) -> Tuple[int, int]:
    if isinstance(value, int):
        return (value, value)
    lo, hi = value
    return (int(lo), int(hi))


def _list(value: Union[None, str, Iterable[str]]) -> Optional[str]:
    if value is None or isinstance(value, str):
        return value
    return ",".join(value)


def generate(
    plies: Union[int, Tuple[int, int]],
    count: int,
    seed: int = 1,
    *,
    threads: int = 0,
    shard: Tuple[int, int] = (0, 1),
    min_score: Optional[float] = None,
    rating: Union[None, int, str, Tuple[int, int]] = None,
    themes: Union[None, str, Iterable[str]] = None,
    exclude_themes: Union[None, str, Iterable[str]] = None,
    nodes: Optional[int] = None,
    hash_mb: int = 16,
    max_candidates: Optional[int] = None,
    final_duals: str = "forbid",
    family_limit: int = 3,
    shape_limit: int = 1,
    from_files: Iterable[Union[str, "_os.PathLike[str]"]] = (),
) -> Iterator[Dict[str, Any]]:
    """Generates sound problems: an iterator of the record dicts that ``toritsume generate
    --plies LO..HI --count N --seed S`` writes with the same options, in the same order.

    ``plies`` is a length (odd) or a range ``(lo, hi)``; ``threads`` 0 is one per core (the
    records do not depend on it); ``shard=(k, n)`` is ``--shard K/N``: disjoint candidates,
    so that ``n`` machines share one job (``count`` is each shard's; their records, merged,
are the sharded job's).
    ``rating`` is ``1500``, ``(1200, 1600)`` or ``"1200..1600"``; ``themes`` and
    ``exclude_themes`` are lists of theme names. The rest are the command's options.

    The run goes on ahead of what is taken (up to a batch, and 256 records kept); leaving
    the loop stops it. A run that stops at ``max_candidates`` with fewer records than asked
    for says so with a ``UserWarning``."""
    if isinstance(rating, tuple):
        rating = f"{rating[0]}..{rating[1]}"
    elif isinstance(rating, int):
        rating = str(rating)
    threads = _threads(threads)
    run = _native.start_generation(
        plies=_range(plies, "plies"),
        count=count,
        seed=seed,
        threads=threads,
        shard=tuple(shard),
        min_score=min_score,
        rating=rating,
        themes=_list(themes),
        exclude_themes=_list(exclude_themes),
        nodes=nodes,
        hash_mb=hash_mb,
        max_candidates=max_candidates,
        final_duals=final_duals,
        family_limit=family_limit,
        shape_limit=shape_limit,
        from_files=[_os.fspath(f) for f in from_files],
    )
    return (_json.loads(text) for text in run)


def read_problems(path: Union[str, "_os.PathLike[str]"]) -> List[Dict[str, Any]]:
    """The problem records of a file the command line reads (JSON lines, pychess-variants,
    EPD or CSV), as dicts; a line that holds no record raises ``ValueError`` naming it.
    ``MemoryError`` is raised when a search table cannot be had (give a smaller
    ``hash_mb``)."""
    return [_json.loads(r) for r in _native.read_problems_json(_os.fspath(path))]


def export(
    records: Iterable[Mapping[str, Any]],
    format: str,
    *,
    by: str = "toritsume",
    attacker_phoenix: str = "auto",
    threads: int = 0,
    nodes: int = 5_000_000,
) -> str:
    """The text ``toritsume export --format FORMAT`` writes of ``records``: ``"pychess"``
    (pychess-variants' JSON), ``"csv"`` (Lichess-style puzzles), ``"epd"``
    (Fairy-Stockfish) or ``"sfen"``. Records that cannot be exported (not sound, or outside
    Fairy-Stockfish's rules for its forms) are left out, as the command leaves them out, and
    each reason is told as a ``UserWarning`` with its count."""
    threads = _threads(threads)
    texts = [_json.dumps(dict(r), ensure_ascii=False) for r in records]
    text, skipped = _native.export_text(
        texts,
        format,
        by=by,
        attacker_phoenix=attacker_phoenix,
        threads=threads,
        nodes=nodes,
    )
    for why, count in skipped:
        _warnings.warn(f"{count} × {why}: left out of the {format} text", stacklevel=2)
    return text
