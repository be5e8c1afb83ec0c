"""Kind ``card-points``: how many points are these cards worth?"""

from __future__ import annotations

from ...engine.cards import card_points, format_cards
from ...engine.errors import SituationError
from ...engine.i18n import N_
from ...engine.i18n import gettext as _
from ..dealing import Pool, codes, not_red_three, plain
from ..measures import wild_count
from ._record import PuzzleKind, Solution, first_value, register


def solve(s) -> Solution:
    cards = s.cards
    red = [c for c in cards if c.is_red_three]
    if red:
        raise SituationError(f"field 'cards': {format_cards(red)} has no card value: a red three scores only as a "
                             f"bonus (100)")
    total = card_points(cards)
    parts = " + ".join(f"{c} {c.points}" for c in cards)
    return Solution({"points": total}, [f"{parts} = {total}." if cards else _("No cards: 0 points.")])


def hints(s) -> list[str]:
    return [_("A joker counts 50; an ace or a two 20; K, Q, J, 10, 9 and 8 count 10; 7, 6, 5, 4 and a black "
              "three count 5."),
            _("Add the cards one by one, or group them by value first.")]


def generate(rng, rules, d, want):
    """A candidate situation (in notation) for the generator, or ``None``."""
    pool = Pool(rules, rng)
    allow = plain if d == 1 else not_red_three
    return {"cards": codes(pool.draw(2 + d + rng.randint(0, d), allow=allow))}


def features(s) -> dict[str, float]:
    """How many cards, how many different values, how many wild."""
    return {"cards": len(s.cards), "values": len({c.points for c in s.cards}), "wild": wild_count(s.cards)}


KIND = register(PuzzleKind(
    name="card-points", fields=("cards",), required=("cards",), answers={"points": int},
    solve=solve, hints=hints, question=N_("How many points are these cards worth?"), answer_control="number",
    describe=first_value, generate=generate, features=features,
    topic=N_("card points"), headline=lambda answer: _("{points} points.").format(points=answer["points"])))
