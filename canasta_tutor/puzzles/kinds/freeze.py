"""Kind ``freeze``: is the discard pile frozen for the team?"""

from __future__ import annotations

from ...engine.pile import _freezers, check_frozen
from ..generator import Pool, _codes, _not_red_three, _plain, _team_melds
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


def generate(rng, rules, d, want):
    """A candidate situation (in notation) for the generator, or ``None``."""
    pool = Pool(rules, rng)
    opened = rng.random() < (0.85 if d == 1 else 0.6)
    melds = _team_melds(pool, rules, rng, rng.randint(1, 2), d) if opened else []
    pile = pool.draw(rng.randint(1, 2 + 3 * d), allow=_plain if not want else _not_red_three)
    if want and opened and not any(c.is_wild or c.is_red_three for c in pile):
        extra = pool.wild(1) if d < 3 or rng.random() < 0.7 else pool.draw(1, allow=lambda c: c.is_red_three)
        pile[rng.randint(0, len(pile) - 1):0] = extra
    if d >= 2 and rng.random() < 0.4:
        pile += pool.draw(1, allow=lambda c: c.is_black_three)
    return {"pile": _codes(pile), "melds": [_codes(m) for m in melds]}


KIND = register(PuzzleKind(
    name="freeze", fields=("pile", "melds"), required=("pile",), answers={"frozen": bool}, solve=solve,
    hints=hints, question="Is the discard pile frozen for your team?", answer_control="yes-no", describe=yes_no,
    generate=generate, topic="freezing", layout=("melds", "pile"), hides=("frozen",), yes_no="frozen"))
