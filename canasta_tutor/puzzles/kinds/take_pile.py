"""Kind ``take-pile``: may the player take the discard pile now?"""

from __future__ import annotations

from ...engine.i18n import N_
from ...engine.i18n import gettext as _
from ...engine.opening import max_meld_points
from ...engine.pile import check_take_pile, is_frozen
from ..dealing import NATURAL_RANKS, Pool, codes, deal_score, not_red_three, team_melds
from ..measures import nearness, wild_count
from ._record import PuzzleKind, Solution, hand, register, table, unopened_hand_problems, yes_no


def solve(s) -> Solution:
    table(s)
    hand(s)
    v = check_take_pile(s)
    return Solution({"take": v.ok}, v.explanation, v)


def hints(s) -> list[str]:
    out = []
    if s.pile:
        out.append(_("The top card is {top}. Where could it go: with cards from your hand, or on one of your team's "
                     "melds?").format(top=s.pile[-1]))
    out.append(_("Is the pile frozen for your team? Then only a natural pair from your hand takes it."))
    if not s.melds:
        out.append(_("Your team has not melded: your first meld must reach {minimum} points, counting the top card "
                     "but no other card of the pile.").format(minimum=s.rules.opening_minimum(s.score)))
    out.append(_("After taking, you must still be able to discard a card, or go out."))
    return out


def generate(rng, rules, d, want):
    """A candidate situation (in notation) for the generator, or ``None``."""
    pool = Pool(rules, rng)
    top_rank = rng.choice(NATURAL_RANKS)
    opened = rng.random() < (0.8 if d == 1 else 0.55)
    melds = team_melds(pool, rules, rng, rng.randint(1, 1 + d // 2), d,
                       avoid=() if rng.random() < 0.3 else (top_rank,)) if opened else []
    score = deal_score(rng, rules, d) if (d >= 3 or not opened) else 5 * rng.randint(0, 299)
    top = pool.naturals(top_rank, 1)
    if not top:
        return None
    held = _hand(pool, rules, rng, d, want, top_rank, opened)
    pile = _pile(pool, rng, d)
    if rng.random() < 0.05 * d and not want:  # a black three on top: nobody takes the pile
        top = pool.draw(1, allow=lambda c: c.is_black_three) or top
    rng.shuffle(held)
    return {"hand": codes(held), "melds": [codes(m) for m in melds], "score": score, "pile": codes(pile + top)}


def _hand(pool, rules, rng, d, want, top_rank, opened):
    """The player's hand: (aiming at a yes) cards of the top card's rank, some wild cards, pairs for a first meld
    when the team has not melded, and other cards up to the hand's size (none of the top card's rank)."""
    size = min(2 + 2 * d + rng.randint(0, 2), rules.hand_size + 4)
    if not opened:  # a player whose team has not melded holds at least the dealt hand (it grows if a turn draws two)
        size = rules.hand_size + rng.randint(0, 3 * (rules.draw_count - 1))
    held = []
    if want or rng.random() < 0.4:
        held += pool.naturals(top_rank, rng.choice([1, 2, 2, 3]))
    if d >= 2 and rng.random() < 0.5:
        held += pool.wild(rng.randint(1, 2))
    if not opened and (want or rng.random() < 0.5):
        for rank in rng.sample(NATURAL_RANKS, 2):
            if rank != top_rank:
                held += pool.naturals(rank, rng.randint(2, 3))
    held += pool.draw(max(1, size - len(held)), allow=lambda c: not c.is_red_three and c.rank != top_rank)
    return held


def _pile(pool, rng, d):
    """The pile under its top card: longer with the level, sometimes with a wild card or a red three in it."""
    small = d >= 4 and rng.random() < 0.3
    pile = pool.draw(rng.randint(0, 1) if small else rng.randint(1, 1 + 3 * d), allow=not_red_three)
    if d >= 2 and rng.random() < 0.35:
        pile[rng.randint(0, len(pile)):0] = pool.wild(1)
    if d >= 3 and rng.random() < 0.15:
        pile[0:0] = pool.draw(1, allow=lambda c: c.is_red_three)
    return pile


def features(s) -> dict[str, float]:
    """The pile, the wild cards, the hand, an unopened team and how close its best first meld comes to the
    minimum, a frozen pile, a hand so small that the turn must still be finished."""
    held, pile = list(s.hand), list(s.pile)
    near = 0.0
    if not s.melds and pile and pile[-1].is_natural:
        best = max_meld_points(held, s.rules, top=pile[-1])
        near = nearness(best, s.rules.opening_minimum(s.score))
    return {"pile": len(pile), "wild": wild_count(held) + wild_count(pile), "hand": len(held),
            "unopened": int(not s.melds), "near_minimum": near, "frozen": int(bool(pile) and is_frozen(s)),
            "finish": int(len(held) <= 3)}


def cut(seen, rng) -> list[dict]:
    """At the start of a turn, before the draw: the hand, the team's melds, the score and the pile."""
    if not seen.pile:
        return []
    out = {"hand": codes(seen.hand), "melds": [codes(m) for m in seen.melds], "score": seen.score,
           "pile": codes(seen.pile)}
    if seen.stock_empty:
        out["stock_empty"] = True
    return [out]


KIND = register(PuzzleKind(
    name="take-pile", fields=("hand", "melds", "score", "pile", "stock_empty"), required=("hand", "pile"),
    answers={"take": bool}, solve=solve, hints=hints, question=N_("May you take the discard pile now?"),
    answer_control="yes-no", describe=yes_no, followup="shown-cards",
    generate=generate, topic=N_("taking the pile"), layout=("melds", "pile", "stock_empty", "hand", "score"),
    yes_no="take", features=features, problems=unopened_hand_problems, cut_moments=("turn",), cut=cut,
    headline=lambda answer: (_("Yes, you may take the pile.") if answer["take"]
                             else _("No, you may not take the pile."))))
