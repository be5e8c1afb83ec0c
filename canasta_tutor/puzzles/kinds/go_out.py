"""Kind ``go-out``: can the player go out this turn?"""

from __future__ import annotations

from ...engine.going_out import check_go_out
from ...engine.i18n import N_, ngettext
from ...engine.i18n import gettext as _
from ...engine.melds import check_meld, count_canastas
from ...engine.numbers import number_word
from ..dealing import NATURAL_RANKS, Pool, codes, deal_score, group, plain
from ..measures import wild_count
from ._record import PuzzleKind, Solution, hand, register, table, unopened_hand_problems, yes_no


def solve(s) -> Solution:
    table(s)
    hand(s)
    v = check_go_out(s)
    return Solution({"go_out": v.ok}, v.explanation, v)


def hints(s) -> list[str]:
    have = count_canastas(list(s.melds), s.rules)
    need = number_word(s.rules.canastas_to_go_out)
    has = (ngettext("Your team has {count} canasta and needs {need} to go out; you may complete one this turn.",
                    "Your team has {count} canastas and needs {need} to go out; you may complete one this turn.",
                    have) if have else
           _("Your team has no canasta and needs {need} to go out; you may complete one this turn."))
    return [has.format(count=number_word(have), need=need),
            _("Every card must go somewhere: on a meld, into a new meld, or as your one last discard.")]


def generate(rng, rules, d, want):
    """A candidate situation (in notation) for the generator, or ``None``."""
    pool = Pool(rules, rng)
    n_canastas = rng.randint(0, rules.canastas_to_go_out + (1 if want else 0))
    ranks = list(NATURAL_RANKS)
    rng.shuffle(ranks)
    melds = _table(pool, rules, rng, d, ranks, n_canastas)
    held = _hand(pool, rules, rng, d, want, ranks, melds)
    rng.shuffle(held)
    return {"hand": codes(held), "melds": [codes(m) for m in melds], "score": deal_score(rng, rules, d)}


def _table(pool, rules, rng, d, ranks, n_canastas):
    """The team's legal melds: up to ``n_canastas`` big ones (canastas or nearly), and some small ones."""
    melds = [group(pool, rules, rank, rng.randint(5, 7), rng.randint(0, 2)) for rank in ranks[:n_canastas]]
    melds = [m for m in melds if check_meld(m, rules).ok and len(m) >= 3]
    for rank in ranks[n_canastas:n_canastas + rng.randint(0, 1 + d // 2)]:
        meld = group(pool, rules, rank, rng.randint(3, 5), rng.randint(0, 1))
        if check_meld(meld, rules).ok:
            melds.append(meld)
    return melds


def _hand(pool, rules, rng, d, want, ranks, melds):
    """The hand: groups of ranks not on the table, wild cards, cards for the first meld, (aiming at a no) odd
    cards, black threes; a team that has not melded holds at least the dealt hand."""
    held = []
    for rank in ranks[6:6 + rng.randint(1, 1 + d // 2)]:
        held += pool.naturals(rank, rng.randint(2, 4))
    if d >= 2:
        held += pool.wild(rng.randint(0, min(4, d)))
    if melds and rng.random() < 0.5:
        held += pool.naturals(melds[0][0].rank if melds[0][0].is_natural else "K", rng.randint(1, 2))
    if not want or rng.random() < 0.6:
        held += pool.draw(rng.randint(1, 2), allow=plain)
    if d >= 3 and rng.random() < 0.2:
        held += pool.draw(rng.randint(2, 4), allow=lambda c: c.is_black_three)
    if not held:
        held = pool.draw(1, allow=plain)
    if not melds and len(held) < rules.hand_size:
        held += pool.draw(rules.hand_size - len(held), allow=plain)
    return held


def features(s) -> dict[str, float]:
    """The hand and its wild cards, the melds, the canastas still missing, a big hand to finish."""
    held, melds = list(s.hand), list(s.melds)
    short = max(0, s.rules.canastas_to_go_out - count_canastas(melds, s.rules)) if melds or held else 0
    return {"hand": len(held), "wild": wild_count(held), "melds": len(melds), "canastas_short": short,
            "finish": int(len(held) >= 6)}


def cut(seen, rng) -> list[dict]:
    """After the draw, before the first meld: the hand, the team's melds and the score."""
    if not seen.hand:
        return []
    return [{"hand": codes(seen.hand), "melds": [codes(m) for m in seen.melds], "score": seen.score}]


KIND = register(PuzzleKind(
    name="go-out", fields=("hand", "melds", "score"), required=("hand",), answers={"go_out": bool}, solve=solve,
    hints=hints, question=N_("Can you go out this turn?"), answer_control="yes-no", describe=yes_no,
    generate=generate, topic=N_("going out"), layout=("melds", "hand", "score"), yes_no="go_out",
    features=features, problems=unopened_hand_problems, cut_moments=("drawn",), cut=cut,
    headline=lambda answer: _("Yes, you can go out.") if answer["go_out"] else _("No, you cannot go out.")))
