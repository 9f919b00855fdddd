"""pegflip: solve, count and generate lights-out toggle puzzles and peg-solitaire jump puzzles.

A puzzle is a TOML file, or the name of a shipped puzzle (:func:`shipped` lists them)::

    >>> import pegflip
    >>> puzzle = pegflip.Puzzle.load("flip4x4")
    >>> puzzle.solve("bwwb/bbwb/bwwb/bwww").length
    4

Every call goes through pegflip's planner under the puzzle's limits, as the command line
does; a call past a limit raises :class:`LimitError`, which names it. Long calls release the
interpreter and stop with ``KeyboardInterrupt`` on Ctrl-C.
"""

from __future__ import annotations

import json
import random
import warnings
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping, Optional, Sequence, Union

from . import _native
from ._native import InputError, InternalError, LimitError, PegflipError, UsageError

__all__ = [
    "Analysis",
    "Answer",
    "Certificate",
    "Generated",
    "InputError",
    "InternalError",
    "LimitError",
    "Move",
    "PegflipError",
    "Puzzle",
    "UsageError",
    "Verdict",
    "shipped",
]

Board = Union[str, Sequence[str], Sequence[Sequence[int]], Any]
"""A board: its text (rows joined by ``/``, or one row a line), a list of row strings, or a
grid of 0 and 1 (nested lists or a 2-D numpy array) the size of the board's rows and columns;
for a graph board, one row."""


def shipped() -> list[str]:
    """The names of the shipped puzzles, as ``pegflip list`` prints them."""
    return list(_native.shipped())


def _toml(value: Any) -> str:
    """A Python value as a TOML value, for an override."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {_toml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"an override value is a bool, number, string, list or dict, not {type(value).__name__}")


def _overrides(overrides: Optional[Mapping[str, Any]], sections: Mapping[str, Any]) -> list[str]:
    """``KEY=VALUE`` overrides, as ``--set`` takes them: dotted keys from ``overrides``, and
    keyword arguments, whose dict values stand for their tables (``board={"rows": 7}``)."""
    sets: list[str] = []
    for key, value in (overrides or {}).items():
        sets.append(f"{key}={_toml(value)}")
    for key, value in sections.items():
        if key == "max_memory":
            sets.append(f"limits.max-memory={_toml(value)}")
        elif isinstance(value, Mapping):
            sets.extend(f"{key}.{k}={_toml(v)}" for k, v in value.items())
        else:
            sets.append(f"{key}={_toml(value)}")
    return sets


def _board(board: Optional[Board]) -> Any:
    """A board as the native module reads it: text, or one list of ints a row."""
    if board is None or isinstance(board, str):
        return board
    if hasattr(board, "tolist"):  # a numpy array
        board = board.tolist()
        if board and not isinstance(board[0], list):
            board = [board]
    rows = list(board)
    if all(isinstance(r, str) for r in rows):
        return "/".join(rows)
    if rows and all(isinstance(v, (int, bool)) for v in rows):
        rows = [rows]  # one row: a graph board's cells
    grid = []
    for r in rows:
        if isinstance(r, str):
            raise TypeError("a board is all row strings or all rows of 0 and 1, not both")
        grid.append([int(v) for v in r])
    return grid


@dataclass(frozen=True)
class Move:
    """One move of an answer: its kind (``toggle``, ``jump`` or ``chain``), its cells as
    ``(row, col)``, how ``solve`` writes it, and the board after it (on small answers)."""

    kind: str
    cells: list[tuple[int, int]]
    text: str
    board: Optional[str] = None
    jumps: list["Move"] = field(default_factory=list)

    @staticmethod
    def _of(step: Mapping[str, Any]) -> "Move":
        return Move(
            kind=step["kind"],
            cells=[tuple(c) for c in step["cells"]],
            text=step.get("text", ""),
            board=step.get("board"),
            jumps=[Move._of(j) for j in step.get("jumps") or []],
        )


@dataclass(frozen=True)
class Certificate:
    """A proof that ``target`` cannot be reached: every move flips an even number of
    ``cells``, while the board and the target differ on an odd number of them."""

    target: str
    cells: list[tuple[int, int]]


@dataclass(frozen=True)
class Answer:
    """What ``solve`` found for one board. ``to_json()`` is exactly what ``pegflip solve
    --json`` writes, and ``text`` what ``pegflip solve`` prints."""

    solvable: bool
    start: str
    length: Optional[int]
    optimal: Optional[bool]
    moves: list[Move]
    final: Optional[str]
    pieces: Optional[int]
    proof: Optional[str]
    certificate: list[Certificate]
    text: str
    _json: str = field(repr=False)

    def to_json(self) -> str:
        """The answer as ``pegflip solve --json`` writes it, byte for byte."""
        return self._json

    def to_dict(self) -> dict[str, Any]:
        """The answer's JSON as Python objects."""
        return json.loads(self._json)

    def __bool__(self) -> bool:
        return self.solvable

    @staticmethod
    def _of(text_json: str, text: str) -> "Answer":
        a = json.loads(text_json)
        return Answer(
            solvable=a["solvable"],
            start=a["start"],
            length=a.get("length"),
            optimal=a.get("optimal"),
            moves=[Move._of(m) for m in a.get("moves") or []],
            final=a.get("final"),
            pieces=a.get("pieces"),
            proof=a.get("proof"),
            certificate=[
                Certificate(c["target"], [tuple(x) for x in c["cells"]])
                for c in a.get("certificate") or []
            ],
            text=text,
            _json=text_json,
        )


@dataclass(frozen=True)
class Analysis:
    """A linear puzzle's algebra: the rank and nullity of its move matrix over GF(2), how
    many boards can reach each target (``2**rank``, an exact int), the quiet patterns (press
    sets that change nothing, as board text with the pressed cells on), and the elimination
    used (``chase`` or ``dense``)."""

    rank: int
    nullity: int
    solvable: int
    quiet: list[str]
    method: str


@dataclass(frozen=True)
class Verdict:
    """Whether a written answer holds, and what was checked (or what failed)."""

    holds: bool
    message: str

    def __bool__(self) -> bool:
        return self.holds


@dataclass(frozen=True)
class Generated:
    """Boards at ``distance`` from the goal, each solved at it before it is returned; whether
    every board at that distance was as likely (``uniform``), the method in words, and the
    seed that draws the same boards again."""

    boards: list[str]
    distance: int
    uniform: bool
    method: str
    seed: int


class Puzzle:
    """A puzzle, parsed, validated and compiled.

    Build one with :meth:`load` or :meth:`from_toml`. Overrides are ``--set`` in Python: a
    dict of dotted keys (``{"board.rows": 7}``), or keyword arguments whose dicts stand for
    tables (``board={"rows": 7, "cols": 7}``, ``limits={"max-states": 2**28}``);
    ``max_memory="1G"`` sets ``limits.max-memory``.
    """

    def __init__(self, native: Any) -> None:
        self._native = native
        (
            self.name,
            self.about,
            self.cells,
            self.moves,
            self.linear,
            self.metric,
            self.start,
        ) = native.facts()

    @staticmethod
    def load(name_or_path: str, overrides: Optional[Mapping[str, Any]] = None, **sections: Any) -> "Puzzle":
        """A puzzle file, or a shipped puzzle by name (``"flip4x4"``)."""
        return Puzzle(_native.load(str(name_or_path), _overrides(overrides, sections)))

    @staticmethod
    def from_toml(
        text: str,
        overrides: Optional[Mapping[str, Any]] = None,
        *,
        file: str = "<toml>",
        **sections: Any,
    ) -> "Puzzle":
        """A puzzle from its TOML text; ``file`` names it in error messages."""
        return Puzzle(_native.from_toml(text, file, _overrides(overrides, sections)))

    def __repr__(self) -> str:
        return f"<pegflip.Puzzle {self.name!r}: {self.cells} cells, {self.moves} moves>"

    def board(self, board: Optional[Board] = None) -> str:
        """A board as board text (rows joined by ``/``); the start for None."""
        return self._native.board(_board(board))

    def solve(self, board: Optional[Board] = None) -> Answer:
        """The fewest moves from ``board`` (the start for None) to the goal, checked by
        replaying them; or, for an impossible board, the proof."""
        text_json, text, _ = self._native.solve(_board(board))
        return Answer._of(text_json, text)

    def analyze(self) -> Analysis:
        """Rank, nullity, solvable boards and quiet patterns (linear puzzles only)."""
        rank, nullity, method, quiet = self._native.analyze()
        return Analysis(rank=rank, nullity=nullity, solvable=1 << rank, quiet=list(quiet), method=method)

    def count(self) -> int:
        """How many states can reach the goal (every state, for fewest pieces), exactly."""
        mult, shift = self._native.count()
        return int(mult) << shift

    def histogram(self) -> dict[int, int]:
        """The solvable states per distance to the goal (per answer, for fewest pieces)."""
        return {d: int(n) for d, n in self._native.histogram()}

    def states(self) -> Iterator[str]:
        """Every solvable state as board text, streamed as they are found: ``itertools.islice``
        takes the first few of any number. Closing the iterator stops the listing."""
        return self._native.states()

    def verify(self, answer: Union[Answer, str, bytes, Mapping[str, Any]]) -> Verdict:
        """Checks a written answer (an :class:`Answer`, the JSON ``solve --json`` writes, or
        that JSON as a dict) without any solver: every move replayed, every claim checked."""
        if isinstance(answer, Answer):
            text = answer.to_json()
        elif isinstance(answer, bytes):
            text = answer.decode()
        elif isinstance(answer, Mapping):
            text = json.dumps(answer)
        else:
            text = answer
        holds, message = self._native.verify(text)
        return Verdict(holds, message)

    def batch(self, text: Union[str, bytes]) -> str:
        """Judge-format input to judge-format output, as ``pegflip batch`` gives it. Input
        that is dropped is reported with ``warnings.warn``."""
        if isinstance(text, bytes):
            text = text.decode()
        out, dropped = self._native.batch(text)
        for w in dropped:
            warnings.warn(w, stacklevel=2)
        return out

    def generate(self, distance: Union[int, str], count: int = 1, seed: Optional[int] = None) -> Generated:
        """``count`` random boards at ``distance`` from the goal (``"max"``: the greatest any
        board has), as ``pegflip generate`` draws them: the same seed gives the same boards."""
        if distance == "max":
            d = None
        elif isinstance(distance, int) and not isinstance(distance, bool):
            d = distance
        else:
            raise TypeError(f"distance is a number of moves or 'max', not {distance!r}")
        if d is not None and not 0 <= d < 2**32:
            raise ValueError(f"distance is a number of moves from 0 to {2**32 - 1}, not {d}")
        if not 1 <= count <= 10**9:
            raise ValueError(f"count is from 1 to 1000000000, not {count}")
        if seed is None:
            seed = random.getrandbits(64)
        if not 0 <= seed < 2**64:
            raise ValueError(f"seed is from 0 to 2**64 - 1, not {seed}")
        boards, at, uniform, method = self._native.generate(d, count, seed)
        return Generated(list(boards), at, uniform, method, seed)
