"""Kind ``take-pile``: may the player take the discard pile now?"""

from __future__ import annotations

from ...engine.pile import check_take_pile
from ..generator import NATURAL_RANKS, Pool, _codes, _not_red_three, _score, _team_melds
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


def generate(rng, rules, d, want):
    """A candidate situation (in notation) for the generator, or ``None``."""
    pool = Pool(rules, rng)
    top_rank = rng.choice(NATURAL_RANKS)
    opened = rng.random() < (0.8 if d == 1 else 0.55)
    melds = _team_melds(pool, rules, rng, rng.randint(1, 1 + d // 2), d,
                        avoid=() if rng.random() < 0.3 else (top_rank,)) if opened else []
    score = _score(rng, rules, d) if (d >= 3 or not opened) else 5 * rng.randint(0, 299)
    top = pool.naturals(top_rank, 1)
    if not top:
        return None
    hand_size = min(2 + 2 * d + rng.randint(0, 2), rules.hand_size + 4)
    if not opened:  # a player whose team has not melded holds at least the dealt hand (it grows if a turn draws two)
        hand_size = rules.hand_size + rng.randint(0, 3 * (rules.draw_count - 1))
    hand = []
    if want or rng.random() < 0.4:
        hand += pool.naturals(top_rank, rng.choice([1, 2, 2, 3]))
    if d >= 2 and rng.random() < 0.5:
        hand += pool.wild(rng.randint(1, 2))
    if not opened and (want or rng.random() < 0.5):
        for rank in rng.sample(NATURAL_RANKS, 2):
            if rank != top_rank:
                hand += pool.naturals(rank, rng.randint(2, 3))
    hand += pool.draw(max(1, hand_size - len(hand)), allow=lambda c: not c.is_red_three and c.rank != top_rank)
    small = d >= 4 and rng.random() < 0.3
    pile = pool.draw(rng.randint(0, 1) if small else rng.randint(1, 1 + 3 * d), allow=_not_red_three)
    if d >= 2 and rng.random() < 0.35:
        pile[rng.randint(0, len(pile)):0] = pool.wild(1)
    if d >= 3 and rng.random() < 0.15:
        pile[0:0] = pool.draw(1, allow=lambda c: c.is_red_three)
    if rng.random() < 0.05 * d and not want:
        top = pool.draw(1, allow=lambda c: c.is_black_three) or top
    rng.shuffle(hand)
    return {"hand": _codes(hand), "melds": [_codes(m) for m in melds], "score": score, "pile": _codes(pile + top)}


KIND = register(PuzzleKind(
    name="take-pile", fields=("hand", "melds", "score", "pile", "stock_empty"), required=("hand", "pile"),
    answers={"take": bool}, solve=solve, hints=hints, question="May you take the discard pile now?",
    answer_control="yes-no", describe=yes_no, followup="shown-cards",
    generate=generate, topic="taking the pile", layout=("melds", "pile", "stock_empty", "hand", "score"),
    yes_no="take"))
