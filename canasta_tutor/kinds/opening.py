"""Kind ``opening``: is this a legal first meld for the team?"""

from __future__ import annotations

from .. import generator as _gen
from ..opening import check_opening
from . import PuzzleKind, Solution, register


def solve(s) -> Solution:
    v = check_opening(s)
    return Solution({"minimum": v.minimum, "points": v.points, "enough": v.ok}, v.explanation, v)


def hints(s) -> list[str]:
    return [f"With a score of {s.score} the team's first meld needs {s.rules.opening_minimum(s.score)} points.",
            "Only card points count, not bonuses; and every meld must itself be legal."]


def describe(answer: dict) -> str:
    return f"{'enough' if answer['enough'] else 'not enough'} (minimum {answer['minimum']})"


KIND = register(PuzzleKind(
    name="opening", fields=("score", "melds"), required=("melds",),
    answers={"minimum": int, "points": int, "enough": bool}, solve=solve, hints=hints,
    question="Is this a legal first meld for your team (an opening)?", answer_control="yes-no", describe=describe,
    generate=lambda rng, rules, d, want: _gen._opening(rng, rules, d, want), topic="opening minimum",
    yes_no="enough"))
