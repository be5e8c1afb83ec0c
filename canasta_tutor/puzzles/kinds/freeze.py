"""Kind ``freeze``: is the discard pile frozen for the team?"""

from __future__ import annotations

from ...engine.i18n import N_
from ...engine.i18n import gettext as _
from ...engine.pile import check_frozen
from ..dealing import Pool, codes, not_red_three, plain, team_melds
from ..measures import wild_count
from ._record import PuzzleKind, Solution, register, table, yes_no


def solve(s) -> Solution:
    table(s)
    v = check_frozen(s)
    return Solution({"frozen": v.ok}, v.explanation, v)


def hints(s) -> list[str]:
    rules = s.rules
    red, black = rules.red_three_freezes_pile, rules.black_three_freezes_pile
    if red and black:
        frozen = _("The pile is frozen for a team when a wild card, red three or black three lies in it, or when the "
                   "team has not melded yet.")
    elif red:
        frozen = _("The pile is frozen for a team when a wild card or red three lies in it, or when the team has not "
                   "melded yet. A black three does not freeze it: on top, it blocks the pile until the next discard "
                   "covers it.")
    elif black:
        frozen = _("The pile is frozen for a team when a wild card or black three lies in it, or when the team has "
                   "not melded yet.")
    else:
        frozen = _("The pile is frozen for a team when a wild card lies in it, or when the team has not melded yet. "
                   "A black three does not freeze it: on top, it blocks the pile until the next discard covers it.")
    return [_("Look through the whole pile, not just the top card."), frozen]


def generate(rng, rules, d, want):
    """A candidate situation (in notation) for the generator, or ``None``."""
    pool = Pool(rules, rng)
    opened = rng.random() < (0.85 if d == 1 else 0.6)
    melds = team_melds(pool, rules, rng, rng.randint(1, 2), d) if opened else []
    pile = pool.draw(rng.randint(1, 2 + 3 * d), allow=plain if not want else not_red_three)
    if want and opened and not any(c.is_wild or c.is_red_three for c in pile):
        extra = pool.wild(1) if d < 3 or rng.random() < 0.7 else pool.draw(1, allow=lambda c: c.is_red_three)
        pile[rng.randint(0, len(pile) - 1):0] = extra
    if d >= 2 and rng.random() < 0.4:
        pile += pool.draw(1, allow=lambda c: c.is_black_three)
    return {"pile": codes(pile), "melds": [codes(m) for m in melds]}


def features(s) -> dict[str, float]:
    """The pile's size and wild cards, how deep the freezing card lies, a black three on top, an unopened team."""
    pile = list(s.pile)
    freezers = [i for i, c in enumerate(reversed(pile))
                if c.is_wild or (c.is_red_three and s.rules.red_three_freezes_pile)]
    return {"pile": len(pile), "wild": wild_count(pile), "buried": freezers[0] if freezers else 0,
            "black_three_top": int(bool(pile) and pile[-1].is_black_three), "unopened": int(not s.melds)}


def cut(seen, rng) -> list[dict]:
    """At the start of a turn: the pile and the team's melds."""
    return [{"pile": codes(seen.pile), "melds": [codes(m) for m in seen.melds]}] if seen.pile else []


KIND = register(PuzzleKind(
    name="freeze", fields=("pile", "melds"), required=("pile",), answers={"frozen": bool}, solve=solve,
    hints=hints, question=N_("Is the discard pile frozen for your team?"), answer_control="yes-no", describe=yes_no,
    generate=generate, topic=N_("freezing"), layout=("melds", "pile"), hides=("frozen",), yes_no="frozen",
    features=features, cut_moments=("turn",), cut=cut,
    # a yes is a state to reckon with (blue, like the frozen marker), a no is good news
    tones=("frozen", "good")))
