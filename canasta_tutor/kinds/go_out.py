"""Kind ``go-out``: can the player go out this turn?"""

from __future__ import annotations

from .. import generator as _gen
from ..cards import count_of, number_word
from ..going_out import check_go_out
from ..melds import count_canastas
from . import PuzzleKind, Solution, hand, register, table, yes_no


def solve(s) -> Solution:
    table(s)
    hand(s)
    v = check_go_out(s)
    return Solution({"go_out": v.ok}, v.explanation, v)


def hints(s) -> list[str]:
    have = count_canastas(list(s.melds), s.rules)
    return [f"Your team has {count_of(have, 'canasta')} and needs {number_word(s.rules.canastas_to_go_out)} "
            f"to go out; you may complete one this turn.",
            "Every card must go somewhere: on a meld, into a new meld, or as your one last discard."]


KIND = register(PuzzleKind(
    name="go-out", fields=("hand", "melds", "score"), required=("hand",), answers={"go_out": bool}, solve=solve,
    hints=hints, question="Can you go out this turn?", answer_control="yes-no", describe=yes_no,
    generate=lambda rng, rules, d, want: _gen._go_out(rng, rules, d, want), topic="going out", yes_no="go_out"))
