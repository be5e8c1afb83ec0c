"""Measured difficulty: what makes a position hard, counted, and levels 1-5 cut from those counts.

A position's difficulty is not what its generator aimed at but what it holds: its kind's record measures it
(:func:`features`: pile size, wild cards, how close the best meld comes to the opening minimum, whether the turn
must still be finished, buried freezing cards, ...), :func:`effort` weighs those measures into one number, and
:class:`Levels` cuts a sample of positions into five bands of equal size, so that level 5 is the hardest fifth
of what the generator (or real play) produces, whatever produced it.

>>> from canasta_tutor.engine.situation import Situation
>>> f = features("take-pile", Situation(hand="7H 7S 4C 9D 5C 6D 8S 10H JC QD KS", pile="5D 2C 7C", score=-100))
>>> f["pile"], f["wild"], f["unopened"], f["near_minimum"]
(3, 1, 1, 1.0)

Pure Python: no Jupyter import.
"""

from __future__ import annotations

from bisect import bisect_right

from ..engine.situation import Situation
from .kinds import get_kind

#: How much one unit of each measure adds to a position's effort (tuned so that no one measure dominates).
WEIGHTS = {
    "cards": 0.5, "values": 0.6, "wild": 1.0, "near_limit": 2.0, "black_threes": 2.5, "sequence": 2.0,
    "going_out": 1.0, "melds": 0.8, "near_minimum": 3.0, "score_edge": 1.5, "pile": 0.3, "buried": 0.3,
    "black_three_top": 2.0, "unopened": 1.5, "hand": 0.15, "frozen": 1.0, "finish": 2.5, "canastas_short": 1.0,
    "red_threes": 0.5, "hands": 0.3, "concealed": 1.5, "canastas": 0.7,
}
LEVELS = 5


def features(kind: str, situation: Situation, answer: dict | None = None) -> dict[str, float]:
    """The measures of ``situation`` as a puzzle of ``kind``: its record's ``features`` (each a number; more
    means harder)."""
    return get_kind(kind).features(situation)


def effort(measures: dict[str, float]) -> float:
    """One number from a position's measures: the weighted sum (unknown measures weigh 1)."""
    return round(sum(WEIGHTS.get(k, 1.0) * v for k, v in measures.items()), 4)


class Levels:
    """Five bands of effort cut from a sample at its quintiles: ``level(effort) -> 1..5``."""

    def __init__(self, sample: list[float]):
        ordered = sorted(sample)
        if not ordered:
            self.cuts: tuple[float, ...] = ()
        else:
            self.cuts = tuple(ordered[min(len(ordered) - 1, len(ordered) * i // LEVELS)] for i in range(1, LEVELS))

    def level(self, value: float) -> int:
        return min(LEVELS, 1 + bisect_right(self.cuts, value)) if self.cuts else 1

    def distance(self, value: float, level: int) -> float:
        """How far ``value`` lies outside band ``level`` (0 inside it); band ``d`` runs from the ``d-1``-th cut
        (included) to the ``d``-th (excluded)."""
        low = self.cuts[level - 2] if level >= 2 and self.cuts else float("-inf")
        high = self.cuts[level - 1] if level <= len(self.cuts) else float("inf")
        if low <= value < high:
            return 0.0
        return low - value if value < low else value - high + 1e-9


__all__ = ["LEVELS", "Levels", "WEIGHTS", "effort", "features"]
