"""Kind ``go-out``: can the player go out this turn?"""

from __future__ import annotations

from ...engine.going_out import check_go_out
from ...engine.melds import check_meld, count_canastas
from ...engine.numbers import count_of, number_word
from ..generator import NATURAL_RANKS, Pool, _codes, _group, _plain, _score
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


def generate(rng, rules, d, want):
    """A candidate situation (in notation) for the generator, or ``None``."""
    pool = Pool(rules, rng)
    melds = []
    n_canastas = rng.randint(0, rules.canastas_to_go_out + (1 if want else 0))
    ranks = list(NATURAL_RANKS)
    rng.shuffle(ranks)
    for rank in ranks[:n_canastas]:
        melds.append(_group(pool, rules, rank, rng.randint(5, 7), rng.randint(0, 2)))
    melds = [m for m in melds if check_meld(m, rules).ok and len(m) >= 3]
    for rank in ranks[n_canastas:n_canastas + rng.randint(0, 1 + d // 2)]:
        meld = _group(pool, rules, rank, rng.randint(3, 5), rng.randint(0, 1))
        if check_meld(meld, rules).ok:
            melds.append(meld)
    hand = []
    for rank in ranks[6:6 + rng.randint(1, 1 + d // 2)]:
        hand += pool.naturals(rank, rng.randint(2, 4))
    if d >= 2:
        hand += pool.wild(rng.randint(0, min(4, d)))
    if melds and rng.random() < 0.5:
        hand += pool.naturals(melds[0][0].rank if melds[0][0].is_natural else "K", rng.randint(1, 2))
    if not want or rng.random() < 0.6:
        hand += pool.draw(rng.randint(1, 2), allow=_plain)
    if d >= 3 and rng.random() < 0.2:
        hand += pool.draw(rng.randint(2, 4), allow=lambda c: c.is_black_three)
    if not hand:
        hand = pool.draw(1, allow=_plain)
    if not melds and len(hand) < rules.hand_size:  # a team that has not melded holds at least the dealt hand
        hand += pool.draw(rules.hand_size - len(hand), allow=_plain)
    rng.shuffle(hand)
    return {"hand": _codes(hand), "melds": [_codes(m) for m in melds], "score": _score(rng, rules, d)}


KIND = register(PuzzleKind(
    name="go-out", fields=("hand", "melds", "score"), required=("hand",), answers={"go_out": bool}, solve=solve,
    hints=hints, question="Can you go out this turn?", answer_control="yes-no", describe=yes_no,
    generate=generate, topic="going out", layout=("melds", "hand", "score"), yes_no="go_out"))
