"""Counting what makes a position hard: the helpers each kind's ``features`` use.

A kind's record measures its positions (:attr:`PuzzleKind.features <canasta_tutor.puzzles.kinds.PuzzleKind>`);
:mod:`canasta_tutor.puzzles.difficulty` weighs the measures and cuts them into levels. A kind with no measures
of its own is measured by :func:`shown_cards`.

>>> from canasta_tutor.engine.situation import Situation
>>> shown_cards(Situation(cards="5H 2C JK"))
{'cards': 3, 'wild': 2}
"""

from __future__ import annotations

from ..engine.situation import Situation


def wild_count(cards) -> int:
    return sum(1 for c in cards if c.is_wild)


def nearness(points: int, minimum: int, span: int = 30) -> float:
    """1 when ``points`` is at the minimum, falling to 0 at ``span`` points away either side."""
    return round(max(0.0, 1.0 - abs(points - minimum) / span), 3)


def score_edge(score: int, rules) -> int:
    """1 when the score lies within 100 points of a step of the opening table (a step is easy to miss)."""
    edges = [lowest for lowest, _ in rules.opening_table if lowest is not None]
    return int(any(abs(score - e) <= 100 for e in edges))


def shown_cards(situation: Situation) -> dict[str, float]:
    """The measures of a kind with none of its own: the cards it shows, and how many of them are wild."""
    shown = [c for name in ("cards", "hand", "pile") for c in (situation.get(name) or ())]
    return {"cards": len(shown), "wild": wild_count(shown)}


__all__ = ["nearness", "score_edge", "shown_cards", "wild_count"]
