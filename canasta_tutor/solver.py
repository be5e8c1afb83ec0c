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
                       p.field("went_out", False), p.rules, concealed_canastas=p.field("concealed_canastas", None))
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


def hints(puzzle: Puzzle) -> list[str]:
    """Hints that point at the rule without giving the answer away, gentlest first."""
    rules = puzzle.rules
    s = puzzle.situation
    kind = puzzle.kind
    out: list[str] = []
    limit = {"three": f"at most {rules.max_wild} wild cards",
             "not-more-than-natural": "never more wild cards than natural ones (and at most three)",
             "fewer-than-natural": f"more natural cards than wild ones (and at most {rules.max_wild} wild)"}
    if kind == "card-points":
        out.append("A joker counts 50; an ace or a two 20; K, Q, J, 10, 9 and 8 count 10; 7, 6, 5, 4 and a black "
                   "three count 5.")
        out.append("Add the cards one by one, or group them by value first.")
    elif kind == "meld":
        cards = s.get("cards", ())
        wild = sum(1 for c in cards if c.is_wild)
        out.append(f"Count them: {len(cards)} cards, {wild} of them wild.")
        out.append(f"Under these rules a meld is at least three cards of one rank, with at least two natural cards "
                   f"and {limit[rules.wild_limit]}; seven cards or more make a canasta."
                   + (" A run of three to seven cards of one suit is a meld too." if rules.sequences else ""))
        out.append("Threes are special: red threes are never melded, black threes only by a player going out.")
    elif kind == "opening":
        out.append(f"With a score of {s.get('score', 0)} the team's first meld needs "
                   f"{rules.opening_minimum(s.get('score', 0))} points.")
        out.append("Only card points count, not bonuses; and every meld must itself be legal.")
    elif kind == "freeze":
        out.append("Look through the whole pile, not just the top card.")
        from .pile import _freezers

        out.append(f"The pile is frozen for a team when a {_freezers(rules)} lies in it, or when the team has "
                   f"not melded yet."
                   + ("" if rules.black_three_freezes_pile else " A black three does not freeze it: on top, it blocks the pile until the next discard covers it."))
    elif kind == "take-pile":
        pile = s.get("pile", ())
        if pile:
            out.append(f"The top card is {pile[-1]}. Where could it go: with cards from your hand, or on one of "
                       f"your team's melds?")
        out.append("Is the pile frozen for your team? Then only a natural pair from your hand takes it.")
        if not s.get("melds"):
            score = s.get("score", 0)
            out.append(f"Your team has not melded: your first meld must reach {rules.opening_minimum(score)} points, "
                       f"counting the top card but no other card of the pile.")
        out.append("After taking, you must still be able to discard a card, or go out.")
    elif kind == "go-out":
        from .melds import count_canastas

        have = count_canastas(s.get("melds", []), rules)
        from .cards import count_of, number_word

        out.append(f"Your team has {count_of(have, 'canasta')} and needs {number_word(rules.canastas_to_go_out)} "
                   f"to go out; you may complete one this turn.")
        out.append("Every card must go somewhere: on a meld, into a new meld, or as your one last discard.")
    elif kind == "score-hand":
        melded = sum(c.points for m in s.get("melds", []) for c in m)
        out.append(f"Start with the card points of every melded card: {melded}.")
        out.append(f"Then bonuses: canastas ({rules.natural_canasta_bonus} natural, {rules.mixed_canasta_bonus} "
                   f"mixed), red threes, going out; then subtract the cards left in hand.")
    return out
