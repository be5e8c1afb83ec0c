"""Kind ``score-hand``: what does the team score for this hand?"""

from __future__ import annotations

from .. import generator as _gen
from ..scoring import score_hand
from . import PuzzleKind, Solution, first_value, register


def solve(s) -> Solution:
    sheet = score_hand(s)
    return Solution({"score": sheet.total}, sheet.explanation, sheet)


def hints(s) -> list[str]:
    rules = s.rules
    melded = sum(c.points for m in s.melds for c in m)
    return [f"Start with the card points of every melded card: {melded}.",
            f"Then bonuses: canastas ({rules.natural_canasta_bonus} natural, {rules.mixed_canasta_bonus} "
            f"mixed), red threes, going out; then subtract the cards left in hand."]


KIND = register(PuzzleKind(
    name="score-hand", fields=("melds", "red_threes", "hands", "went_out", "concealed_canastas"),
    required=("melds",), answers={"score": int}, solve=solve, hints=hints,
    question="What does your team score for this hand?", answer_control="number", describe=first_value,
    generate=lambda rng, rules, d, want: _gen._score_hand(rng, rules, d, want), topic="scoring"))
