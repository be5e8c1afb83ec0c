"""Measured difficulty: what makes a position hard, counted, and levels 1-5 cut from those counts.

A position's difficulty is not what its generator aimed at but what it holds: :func:`features` measures it
(pile size, wild cards, how close the best meld comes to the opening minimum, whether the turn must still be
finished, buried freezing cards, ...), :func:`effort` weighs those measures into one number, and
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

from ..engine.melds import count_canastas
from ..engine.situation import Situation

#: The measures per kind (each is a number; more means harder), in the order :func:`features` returns them.
FEATURES = {
    "card-points": ("cards", "values", "wild"),
    "meld": ("cards", "wild", "near_limit", "black_threes", "sequence", "going_out"),
    "opening": ("cards", "wild", "melds", "near_minimum", "score_edge"),
    "freeze": ("pile", "wild", "buried", "black_three_top", "unopened"),
    "take-pile": ("pile", "wild", "hand", "unopened", "near_minimum", "frozen", "finish"),
    "go-out": ("hand", "wild", "melds", "canastas_short", "finish"),
    "score-hand": ("melds", "cards", "red_threes", "hands", "concealed", "canastas"),
}
#: How much one unit of each measure adds to a position's effort (tuned so that no one measure dominates).
WEIGHTS = {
    "cards": 0.5, "values": 0.6, "wild": 1.0, "near_limit": 2.0, "black_threes": 2.5, "sequence": 2.0,
    "going_out": 1.0, "melds": 0.8, "near_minimum": 3.0, "score_edge": 1.5, "pile": 0.3, "buried": 0.3,
    "black_three_top": 2.0, "unopened": 1.5, "hand": 0.15, "frozen": 1.0, "finish": 2.5, "canastas_short": 1.0,
    "red_threes": 0.5, "hands": 0.3, "concealed": 1.5, "canastas": 0.7,
}
LEVELS = 5


def _wild(cards) -> int:
    return sum(1 for c in cards if c.is_wild)


def _nearness(points: int, minimum: int, span: int = 30) -> float:
    """1 when ``points`` is at the minimum, falling to 0 at ``span`` points away either side."""
    return round(max(0.0, 1.0 - abs(points - minimum) / span), 3)


def _score_edge(score: int, rules) -> int:
    """1 when the score lies within 100 points of a step of the opening table (a step is easy to miss)."""
    edges = [lowest for lowest, _ in rules.opening_table if lowest is not None]
    return int(any(abs(score - e) <= 100 for e in edges))


def features(kind: str, situation: Situation, answer: dict | None = None) -> dict[str, float]:
    """The measures of ``situation`` as a puzzle of ``kind`` (see :data:`FEATURES`)."""
    s, rules = situation, situation.rules
    melds = list(s.melds)
    if kind == "card-points":
        return {"cards": len(s.cards), "values": len({c.points for c in s.cards}), "wild": _wild(s.cards)}
    if kind == "meld":
        cards = s.cards
        wild = _wild(cards)
        natural = len(cards) - wild
        near = int(wild > 0 and (wild >= rules.wild_capacity(natural) or abs(natural - wild) <= 1))
        suits = {c.suit for c in cards if c.is_natural}
        ranks = {c.rank for c in cards if c.is_natural}
        return {"cards": len(cards), "wild": wild, "near_limit": near,
                "black_threes": int(any(c.is_black_three for c in cards)),
                "sequence": int(rules.sequences and len(ranks) > 1 and len(suits) == 1),
                "going_out": int(bool(s.going_out))}
    if kind == "opening":
        cards = [c for m in melds for c in m]
        points = sum(c.points for c in cards)
        return {"cards": len(cards), "wild": _wild(cards), "melds": len(melds),
                "near_minimum": _nearness(points, rules.opening_minimum(s.score)),
                "score_edge": _score_edge(s.score, rules)}
    if kind == "freeze":
        pile = list(s.pile)
        freezers = [i for i, c in enumerate(reversed(pile))
                    if c.is_wild or (c.is_red_three and rules.red_three_freezes_pile)]
        return {"pile": len(pile), "wild": _wild(pile), "buried": freezers[0] if freezers else 0,
                "black_three_top": int(bool(pile) and pile[-1].is_black_three), "unopened": int(not melds)}
    if kind == "take-pile":
        from ..engine.opening import max_meld_points
        from ..engine.pile import is_frozen

        hand, pile = list(s.hand), list(s.pile)
        near = 0.0
        if not melds and pile and pile[-1].is_natural:
            best = max_meld_points(hand, rules, top=pile[-1])
            near = _nearness(best, rules.opening_minimum(s.score))
        tight = len(hand) <= 3
        return {"pile": len(pile), "wild": _wild(hand) + _wild(pile), "hand": len(hand), "unopened": int(not melds),
                "near_minimum": near, "frozen": int(bool(pile) and is_frozen(s)), "finish": int(tight)}
    if kind == "go-out":
        hand = list(s.hand)
        short = max(0, rules.canastas_to_go_out - count_canastas(melds, rules)) if melds or hand else 0
        return {"hand": len(hand), "wild": _wild(hand), "melds": len(melds), "canastas_short": short,
                "finish": int(len(hand) >= 6)}
    if kind == "score-hand":
        cards = [c for m in melds for c in m]
        left = [c for h in s.hands for c in h]
        return {"melds": len(melds), "cards": len(cards) + len(left), "red_threes": len(s.red_threes),
                "hands": len(left), "concealed": int(s.went_out == "concealed"),
                "canastas": count_canastas(melds, rules) if melds else 0}
    # a kind with no measures of its own: the cards it shows
    shown = [c for name in ("cards", "hand", "pile") for c in (s.get(name) or ())]
    return {"cards": len(shown), "wild": _wild(shown)}


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


__all__ = ["FEATURES", "LEVELS", "Levels", "WEIGHTS", "effort", "features"]
