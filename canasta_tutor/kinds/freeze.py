"""Kind ``freeze``: is the discard pile frozen for the team?"""

from __future__ import annotations

from .. import generator as _gen
from ..pile import _freezers, check_frozen
from . import PuzzleKind, Solution, register, table, yes_no


def solve(s) -> Solution:
    table(s)
    v = check_frozen(s)
    return Solution({"frozen": v.ok}, v.explanation, v)


def hints(s) -> list[str]:
    rules = s.rules
    return ["Look through the whole pile, not just the top card.",
            f"The pile is frozen for a team when a {_freezers(rules)} lies in it, or when the team has not melded "
            f"yet."
            + ("" if rules.black_three_freezes_pile else
               " A black three does not freeze it: on top, it blocks the pile until the next discard covers it.")]


KIND = register(PuzzleKind(
    name="freeze", fields=("pile", "melds"), required=("pile",), answers={"frozen": bool}, solve=solve,
    hints=hints, question="Is the discard pile frozen for your team?", answer_control="yes-no", describe=yes_no,
    generate=lambda rng, rules, d, want: _gen._freeze(rng, rules, d, want), topic="freezing", yes_no="frozen"))
