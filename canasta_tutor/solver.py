"""Solve a puzzle with the engine: the answer in the contract's shape, and why.

Nothing here decides a rule: every answer comes from the engine's checks.
A situation that cannot occur raises :class:`SituationError` with what is
wrong and where.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import card_points, format_cards
from .errors import SituationError
from .going_out import check_go_out
from .melds import check_meld, check_team_melds
from .opening import check_opening
from .pile import check_frozen, check_take_pile
from .puzzle import Puzzle
from .scoring import score_hand


@dataclass(frozen=True)
class Solution:
    answer: dict[str, Any]
    explanation: list[str]
    verdict: Any = None


def _table(puzzle: Puzzle, *, going_out: bool = False):
    melds = puzzle.field("melds", [])
    v = check_team_melds(melds, puzzle.rules, going_out=going_out)
    if not v.ok:
        raise SituationError("field 'melds': " + " ".join(v.explanation))
    return melds


def _hand(puzzle: Puzzle):
    hand = puzzle.field("hand", ())
    if not hand:
        raise SituationError("field 'hand': the hand is empty; a player always holds a card at the start of a turn")
    return hand


def _card_points(p: Puzzle) -> Solution:
    cards = p.field("cards", ())
    red = [c for c in cards if c.is_red_three]
    if red:
        raise SituationError(f"field 'cards': {format_cards(red)} has no card value: a red three scores only as a "
                             f"bonus (100)")
    total = card_points(cards)
    parts = " + ".join(f"{c} {c.points}" for c in cards)
    lines = [f"{parts} = {total}." if cards else "No cards: 0 points."]
    return Solution({"points": total}, lines)


def _meld(p: Puzzle) -> Solution:
    v = check_meld(p.field("cards", ()), p.rules, going_out=bool(p.field("going_out", False)))
    return Solution({"valid": v.ok, "canasta": v.canasta if v.ok else "none"}, v.explanation, v)


def _opening(p: Puzzle) -> Solution:
    v = check_opening(p.field("melds", []), p.field("score", 0), p.rules)
    return Solution({"minimum": v.minimum, "points": v.points, "enough": v.ok}, v.explanation, v)


def _freeze(p: Puzzle) -> Solution:
    melds = _table(p)
    v = check_frozen(p.field("pile", ()), melds, p.rules)
    return Solution({"frozen": v.ok}, v.explanation, v)


def _take(p: Puzzle) -> Solution:
    melds = _table(p)
    v = check_take_pile(_hand(p), melds, p.field("score", 0), p.field("pile", ()), p.rules,
                        stock_empty=bool(p.field("stock_empty", False)))
    return Solution({"take": v.ok}, v.explanation, v)


def _go_out(p: Puzzle) -> Solution:
    melds = _table(p)
    v = check_go_out(_hand(p), melds, p.field("score", 0), p.rules)
    return Solution({"go_out": v.ok}, v.explanation, v)


def _score(p: Puzzle) -> Solution:
    sheet = score_hand(p.field("melds", []), p.field("red_threes", ()), p.field("hands", []),
                       p.field("went_out", False), p.rules)
    return Solution({"score": sheet.total}, sheet.explanation, sheet)


SOLVERS = {"card-points": _card_points, "meld": _meld, "opening": _opening, "freeze": _freeze,
           "take-pile": _take, "go-out": _go_out, "score-hand": _score}


def solve(puzzle: Puzzle) -> Solution:
    """The engine's answer to ``puzzle``; raises :class:`SituationError` if the situation cannot occur."""
    return SOLVERS[puzzle.kind](puzzle)


def disagreements(puzzle: Puzzle, solution: Solution) -> dict[str, tuple[Any, Any]]:
    """Keys of ``expect`` where the author's answer differs from the engine's: key -> (expected, engine)."""
    out = {}
    for key, expected in (puzzle.expect or {}).items():
        got = solution.answer.get(key)
        if expected != got or type(expected) is not type(got):
            out[key] = (expected, got)
    return out
