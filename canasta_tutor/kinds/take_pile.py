"""Kind ``take-pile``: may the player take the discard pile now?"""

from __future__ import annotations

from .. import generator as _gen
from ..pile import check_take_pile
from . import PuzzleKind, Solution, hand, register, table, yes_no


def solve(s) -> Solution:
    table(s)
    hand(s)
    v = check_take_pile(s)
    return Solution({"take": v.ok}, v.explanation, v)


def hints(s) -> list[str]:
    out = []
    if s.pile:
        out.append(f"The top card is {s.pile[-1]}. Where could it go: with cards from your hand, or on one of "
                   f"your team's melds?")
    out.append("Is the pile frozen for your team? Then only a natural pair from your hand takes it.")
    if not s.melds:
        out.append(f"Your team has not melded: your first meld must reach {s.rules.opening_minimum(s.score)} "
                   f"points, counting the top card but no other card of the pile.")
    out.append("After taking, you must still be able to discard a card, or go out.")
    return out


KIND = register(PuzzleKind(
    name="take-pile", fields=("hand", "melds", "score", "pile", "stock_empty"), required=("hand", "pile"),
    answers={"take": bool}, solve=solve, hints=hints, question="May you take the discard pile now?",
    answer_control="yes-no", describe=yes_no,
    generate=lambda rng, rules, d, want: _gen._take_pile(rng, rules, d, want), topic="taking the pile",
    yes_no="take"))
