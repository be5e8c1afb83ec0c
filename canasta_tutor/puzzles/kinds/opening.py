"""Kind ``opening``: is this a legal first meld for the team?"""

from __future__ import annotations

from ...engine.opening import check_opening
from ..generator import NATURAL_RANKS, Pool, _codes, _group, _score
from . import PuzzleKind, Solution, register


def solve(s) -> Solution:
    v = check_opening(s)
    return Solution({"minimum": v.minimum, "points": v.points, "enough": v.ok}, v.explanation, v)


def hints(s) -> list[str]:
    return [f"With a score of {s.score} the team's first meld needs {s.rules.opening_minimum(s.score)} points.",
            "Only card points count, not bonuses; and every meld must itself be legal."]


def describe(answer: dict) -> str:
    return f"{'enough' if answer['enough'] else 'not enough'} (minimum {answer['minimum']})"


def generate(rng, rules, d, want):
    """A candidate situation (in notation) for the generator, or ``None``."""
    pool = Pool(rules, rng)
    score = _score(rng, rules, d)
    minimum = rules.opening_minimum(score)
    melds = []
    n = rng.randint(1, 1 + d // 2)
    ranks = list(NATURAL_RANKS)
    rng.shuffle(ranks)
    for rank in ranks[:n]:
        wild = rng.choice([0, 0, 1] + ([1, 2, 3] if d >= 3 else []))
        melds.append(_group(pool, rules, rank, rng.randint(2 if wild else 3, 4), wild))
    if d >= 4 and rng.random() < 0.2:
        melds[-1] = melds[-1] + pool.wild(3)
    points = sum(c.points for m in melds for c in m)
    if want and points < minimum:
        extra = _group(pool, rules, ranks[n % len(ranks)], 3, rng.randint(0, 2))
        melds.append(extra)
    return {"score": score, "melds": [_codes(m) for m in melds]}


KIND = register(PuzzleKind(
    name="opening", fields=("score", "melds"), required=("melds",),
    answers={"minimum": int, "points": int, "enough": bool}, solve=solve, hints=hints,
    question="Is this a legal first meld for your team (an opening)?", answer_control="yes-no", describe=describe,
    generate=generate, topic="opening minimum", layout=("melds", "score"),
    labels={"melds": "The melds you put down"}, hides=("minimum",),
    yes_no="enough"))
