"""Kind ``score-hand``: what does the team score for this hand?"""

from __future__ import annotations

from ...engine.scoring import score_hand
from ..generator import Pool, _codes, _not_red_three, _team_melds
from . import PuzzleKind, Solution, first_value, register


def solve(s) -> Solution:
    sheet = score_hand(s)
    return Solution({"score": sheet.total}, sheet.explanation, sheet)


def hints(s) -> list[str]:
    rules = s.rules
    melded = sum(c.points for m in s.melds for c in m)
    return [f"Start with the card points of every melded card: {melded}.",
            f"Then bonuses: canastas ({rules.natural_canasta_bonus} natural, {rules.mixed_canasta_bonus} "
            f"mixed), red threes, going out; then subtract the cards left in hand."]


def generate(rng, rules, d, want):
    """A candidate situation (in notation) for the generator, or ``None``."""
    pool = Pool(rules, rng)
    opened = rng.random() < 0.9
    melds = _team_melds(pool, rules, rng, rng.randint(1, 1 + d), max(d, 3)) if opened else []
    from ...engine.melds import count_canastas

    went_out = False
    if melds and count_canastas(melds, rules) >= rules.canastas_to_go_out:
        went_out = rng.choice([False, True, True] + (["concealed"] if d >= 3 else []))
    red = pool.draw(rng.choice([0, 0, 1, 1, 2] + ([rules.red_threes_in_game] if d >= 3 else [])),
                    allow=lambda c: c.is_red_three)
    from ..generator import team_size

    hands = []  # your hand first, then your partners' (when the side has partners)
    for _ in range(rng.randint(0 if went_out else 1, team_size(rules))):
        hands.append(pool.draw(rng.randint(1, 1 + d), allow=_not_red_three))
    if went_out and hands:
        hands[rng.randrange(len(hands))] = []  # the player who went out
    return {"melds": [_codes(m) for m in melds], "red_threes": _codes(red), "hands": [_codes(h) for h in hands],
            "went_out": went_out}


KIND = register(PuzzleKind(
    name="score-hand", fields=("melds", "red_threes", "hands", "went_out", "concealed_canastas"),
    required=("melds",), answers={"score": int}, solve=solve, hints=hints,
    question="What does your team score for this hand?", answer_control="number", describe=first_value,
    generate=generate, topic="scoring",
    layout=("melds", "red_threes", "hands", "went_out", "concealed_canastas"),
    labels={"melds": "Your team's melds at the end of the hand"}))
