"""Kind ``opening``: is this a legal first meld for the team?"""

from __future__ import annotations

import random
from collections import defaultdict

from ...engine.i18n import N_
from ...engine.i18n import gettext as _
from ...engine.opening import check_opening
from .. import paper
from ..dealing import NATURAL_RANKS, Pool, codes, deal_score, group
from ..measures import nearness, score_edge, wild_count
from ._record import PuzzleKind, Solution, register

LABEL = N_("The melds you put down")


def solve(s) -> Solution:
    v = check_opening(s)
    return Solution({"minimum": v.minimum, "points": v.points, "enough": v.ok}, v.explanation, v)


def hints(s) -> list[str]:
    return [_("With a score of {score} the team's first meld needs {minimum} points.").format(
                score=s.score, minimum=s.rules.opening_minimum(s.score)),
            _("Only card points count, not bonuses; and every meld must itself be legal.")]


def describe(answer: dict) -> str:
    return f"{'enough' if answer['enough'] else 'not enough'} (minimum {answer['minimum']})"


def generate(rng, rules, d, want):
    """A candidate situation (in notation) for the generator, or ``None``."""
    pool = Pool(rules, rng)
    score = deal_score(rng, rules, d)
    minimum = rules.opening_minimum(score)
    melds = []
    n = rng.randint(1, 1 + d // 2)
    ranks = list(NATURAL_RANKS)
    rng.shuffle(ranks)
    for rank in ranks[:n]:
        wild = rng.choice([0, 0, 1] + ([1, 2, 3] if d >= 3 else []))
        melds.append(group(pool, rules, rank, rng.randint(2 if wild else 3, 4), wild))
    if d >= 4 and rng.random() < 0.2:
        melds[-1] = melds[-1] + pool.wild(3)
    points = sum(c.points for m in melds for c in m)
    if want and points < minimum:
        extra = group(pool, rules, ranks[n % len(ranks)], 3, rng.randint(0, 2))
        melds.append(extra)
    return {"score": score, "melds": [codes(m) for m in melds]}


def features(s) -> dict[str, float]:
    """The cards and wild cards put down, how many melds, how close to the minimum, a score near a step."""
    melds = list(s.melds)
    cards = [c for m in melds for c in m]
    points = sum(c.points for c in cards)
    return {"cards": len(cards), "wild": wild_count(cards), "melds": len(melds),
            "near_minimum": nearness(points, s.rules.opening_minimum(s.score)),
            "score_edge": score_edge(s.score, s.rules)}


def problems(s) -> list[str]:
    """A first meld holds no more cards than a hand after the draw."""
    rules = s.rules
    cards = sum(len(m) for m in s.melds)
    if cards > rules.hand_size + rules.draw_count:
        return [f"the first meld holds {cards} cards, more than a hand of {rules.hand_size} and the draw"]
    return []


def opening_from_hand(hand, rules, rng: random.Random) -> list[list] | None:
    """A first meld a player holding ``hand`` could put down: one to three groups of ranks the hand holds
    (a pair gets a wild card, bigger groups sometimes one or two), or ``None`` when the hand holds none."""
    by_rank = defaultdict(list)
    wild = []
    for card in hand:
        if card.is_wild:
            wild.append(card)
        elif card.is_natural and not card.is_black_three and not card.is_red_three:
            by_rank[card.rank].append(card)
    ranks = [r for r, cards in by_rank.items() if len(cards) >= 3 or (len(cards) == 2 and wild)]
    if not ranks:
        return None
    rng.shuffle(ranks)
    rng.shuffle(wild)
    melds = []
    for rank in ranks[:rng.randint(1, min(3, len(ranks)))]:
        naturals = by_rank[rank]
        take = naturals if len(naturals) <= 3 else naturals[:rng.randint(3, len(naturals))]
        extra = _wild_to_add(len(take), min(rules.wild_capacity(len(take)), len(wild)), rng)
        if extra is None:
            continue
        melds.append(list(take) + wild[:extra])
        wild = wild[extra:]
    return melds or None


def _wild_to_add(naturals: int, room: int, rng: random.Random) -> int | None:
    """How many wild cards go with ``naturals`` natural cards (a pair needs one; sometimes one or two more), or
    ``None`` when the ``room`` left (the rules' limit, the wild cards the hand still holds) is too small."""
    need = 1 if naturals == 2 else 0
    extra = need + (rng.randint(0, max(0, room - need)) if room > need and rng.random() < 0.35 else 0)
    return None if extra > room else extra


def cut(seen, rng) -> list[dict]:
    """After the draw, for a team that has not melded: a first meld the player could put down from the hand."""
    if seen.melds:
        return []
    melds = opening_from_hand(seen.hand, seen.rules, rng)
    return [] if melds is None else [{"score": seen.score, "melds": [codes(m) for m in melds]}]


def worksheet(s) -> list[paper.Row]:
    """The melds put down ("none" when there are none), then the score without the minimum (that is the
    question)."""
    return paper.melds_rows(s, LABEL, empty="none") + paper.score_rows(s, minimum=False)


KIND = register(PuzzleKind(
    name="opening", fields=("score", "melds"), required=("melds",),
    answers={"minimum": int, "points": int, "enough": bool}, solve=solve, hints=hints,
    question=N_("Is this a legal first meld for your team (an opening)?"), answer_control="yes-no", describe=describe,
    generate=generate, topic=N_("opening minimum"), layout=("melds", "score"),
    labels={"melds": LABEL}, hides=("minimum",),
    yes_no="enough", features=features, problems=problems, cut_moments=("drawn",), cut=cut, worksheet=worksheet,
    headline=lambda answer: _("A legal opening.") if answer["enough"] else _("Not an opening.")))
