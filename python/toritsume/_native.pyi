"""Type stubs of the extension module (the library itself); use the functions of
``toritsume`` rather than these."""

from typing import Iterator, List, Optional, Tuple

class Position:
    """A Tori Shogi position."""

    def __init__(self, text: str) -> None:
        """A position from SFEN, FEN or ``"startpos"``, each optionally followed by
        ``moves ...`` (USI). Raises ``ValueError`` for text that is not one."""
    def sfen(self) -> str:
        """The position in SFEN."""
    def fen(self) -> str:
        """The position in FEN, as Fairy-Stockfish and pychess-variants write it."""
    def legal_moves(self) -> List[str]:
        """The legal moves (USI), the no-swallow-drop-mate rule applied."""
    def checks(self) -> List[str]:
        """The legal moves that give check (USI)."""
    def push(self, usi: str) -> None:
        """Plays a legal move given in USI; ``ValueError`` when it is not legal here."""
    def is_check(self) -> bool:
        """Whether the side to move is in check."""
    def is_checkmate(self) -> bool:
        """Whether the side to move is mated."""
    def svg(self, *, kanji: bool = False) -> str:
        """The position as an SVG document."""
    def perft(self, depth: int) -> int:
        """The number of leaf positions ``depth`` plies on."""
    @property
    def turn(self) -> str:
        """The side to move: ``"black"`` or ``"white"``."""
    def copy(self) -> "Position":
        """A copy of the position."""
    def __hash__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...

class Generation(Iterator[str]):
    def __iter__(self) -> "Generation": ...
    def __next__(self) -> str: ...

def version() -> str: ...
def solve_json(
    text: str,
    *,
    max_plies: Optional[int],
    nodes: Optional[int],
    time: Optional[float],
    hash_mb: int,
    threads: int,
    defender_hand: str,
    variations: bool,
    tries: bool,
) -> Tuple[str, Optional[str]]: ...
def solve_many_json(
    texts: List[str],
    *,
    max_plies: Optional[int],
    nodes: Optional[int],
    time: Optional[float],
    hash_mb: int,
    threads: int,
    defender_hand: str,
    variations: bool,
    tries: bool,
) -> List[Tuple[Optional[str], Optional[str], Optional[str]]]: ...
def verify_json(
    text: str,
    *,
    solution: Optional[str],
    max_plies: Optional[int],
    nodes: Optional[int],
    time: Optional[float],
    hash_mb: int,
    threads: int,
    defender_hand: str,
    variations: bool,
    tries: bool,
    repair: bool,
) -> Tuple[str, Optional[str]]: ...
def read_problems_json(path: str) -> List[str]: ...
def read_positions(text: str, name: str) -> List[str]: ...
def export_text(
    records_json: List[str],
    format: str,
    *,
    by: str,
    attacker_phoenix: str,
    threads: int,
    nodes: int,
) -> Tuple[str, List[Tuple[str, int]]]: ...
def start_generation(
    *,
    plies: Tuple[int, int],
    count: int,
    seed: int,
    threads: int,
    shard: Tuple[int, int],
    min_score: Optional[float],
    rating: Optional[str],
    themes: Optional[str],
    exclude_themes: Optional[str],
    nodes: Optional[int],
    hash_mb: int,
    max_candidates: Optional[int],
    final_duals: str,
    family_limit: int,
    shape_limit: int,
    from_files: List[str],
) -> Generation: ...
