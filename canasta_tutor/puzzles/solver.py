"""Solve a puzzle with the engine: the answer in the contract's shape, and why.

Nothing here decides a rule: every answer comes from the engine's checks.
A situation that cannot occur raises :class:`SituationError` with what is
wrong and where.
"""

from __future__ import annotations

from typing import Any

from .format import Puzzle
from .kinds import KINDS, Solution, get_kind

#: The solver of each kind (from the registry, :data:`canasta_tutor.puzzles.kinds.KINDS`).
SOLVERS = {name: kind.solve for name, kind in KINDS.items()}


def solve(puzzle: Puzzle) -> Solution:
    """The engine's answer to ``puzzle``; raises :class:`SituationError` if the situation cannot occur."""
    return get_kind(puzzle.kind).solve(puzzle.situation)


def disagreements(puzzle: Puzzle, solution: Solution) -> dict[str, tuple[Any, Any]]:
    """Keys of ``expect`` where the author's answer differs from the engine's: key -> (expected, engine)."""
    out = {}
    for key, expected in (puzzle.expect or {}).items():
        got = solution.answer.get(key)
        if expected != got or type(expected) is not type(got):
            out[key] = (expected, got)
    return out


def hints(puzzle: Puzzle) -> list[str]:
    """Hints that point at the rule without giving the answer away, gentlest first."""
    return list(get_kind(puzzle.kind).hints(puzzle.situation))


__all__ = ["SOLVERS", "Solution", "disagreements", "hints", "solve"]
