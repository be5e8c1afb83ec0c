"""Going out concealed under an opening minimum (issue 19 §0): the counting core decides it
(``counts.place_every_card(..., minimum=...)``), with the points of every card melded (all but the last discard)
reaching the minimum. No preset asks for it (``concealed_needs_no_minimum`` is true in all), so the hands here are
played under each preset with that house rule turned off. The core's answers are held to the old explained search
(``find_go_out(..., minimum=...)``, which decided this case before) on random hands of every preset, and on small
hands to the referee's brute force (``tests/referee_rules.py``, written from the rules apart from the engine)."""

import random

import pytest
from referee_rules import Position, go_out_witness

from canasta_tutor.engine.cards import Card, card_points, deck_counts, parse_cards
from canasta_tutor.engine.go_out_search import counted_go_out, find_go_out
from canasta_tutor.engine.going_out import check_go_out
from canasta_tutor.engine.rules import PRESETS, with_options
from canasta_tutor.engine.situation import SearchTooLarge

HOUSE = {name: with_options(rules, concealed_needs_no_minimum=False) for name, rules in PRESETS.items()}
SCORES = (-100, 0, 1500, 3000)


def _deck(rules) -> list[Card]:
    cards = []
    for card, n in deck_counts(rules.decks, rules.jokers).items():
        if not card.is_red_three:
            cards += [card] * n
    return cards


def _hands(rules, seed: int, count: int, sizes: tuple[int, int]):
    """Random hands (no red three) biased towards ones that may go out: few ranks, pairs and more."""
    rnd = random.Random(seed)
    deck = _deck(rules)
    for _ in range(count):
        ranks = rnd.sample(sorted({c.rank for c in deck if c.is_natural}), rnd.randint(1, 3))
        wild = [c for c in deck if not c.is_natural]
        pool = [c for c in deck if c.rank in ranks] + rnd.sample(wild, rnd.randint(0, 4))
        yield rnd.sample(pool, min(len(pool), rnd.randint(*sizes))), rnd.choice(SCORES)


@pytest.mark.parametrize("name", sorted(HOUSE))
def test_the_core_agrees_with_the_old_search(name):
    rules = HOUSE[name]
    seen = {True: 0, False: 0}
    below = too_large = 0
    sizes = (14, 17) if rules.canastas_to_go_out > 1 else (6, 13 if rules.sequences else 18)
    for hand, score in _hands(rules, 19, 200, sizes):
        minimum = rules.opening_minimum(score)
        try:
            old = find_go_out(hand, (), rules, need=rules.canastas_to_go_out, minimum=minimum)[0]
        except SearchTooLarge:
            too_large += 1
            continue
        v = check_go_out(hand, melds=(), score=score, rules=rules)
        assert v.ok == (old is not None), (name, score, " ".join(c.code for c in hand), minimum)
        seen[v.ok] += 1
        if v.ok:
            plan = counted_go_out(hand, (), rules, rules.canastas_to_go_out, minimum=minimum)
            melded = list(hand)
            if plan.discard is not None:
                melded.remove(plan.discard)
            assert card_points(melded) >= minimum, (hand, plan)
        elif check_go_out(hand, melds=(), score=score, rules=PRESETS[name]).ok:
            below += 1   # a no only the minimum makes
    assert seen[True] >= 5 and seen[False] >= 5 and below >= 1, (seen, below, too_large)


@pytest.mark.parametrize("name", sorted(HOUSE))
def test_the_core_agrees_with_the_referee_on_small_hands(name):
    rules = HOUSE[name]
    for hand, score in _hands(rules, 7, 120, (3, 9)):
        v = check_go_out(hand, melds=(), score=score, rules=rules)
        pos = Position(rules, tuple(hand), (), score, (), 40)
        witness = go_out_witness(pos)
        assert v.ok == (witness is not None), (name, pos.describe(), witness)


def test_the_discard_is_the_card_the_minimum_can_spare():
    # six aces (120 points), a joker (50) and a 2 (20): a canasta of seven and one wild card to discard, or a
    # canasta of eight and no discard
    rules = HOUSE["classic"]
    hand = parse_cards("AH AS AD AC AH AS JK 2C")
    need = rules.canastas_to_go_out
    for minimum, discard in ((140, Card("2C")), (150, Card("2C")), (171, None), (190, None)):
        plan = counted_go_out(hand, (), rules, need, minimum=minimum)
        assert plan is not None and plan.discard == discard, (minimum, plan)
        old = find_go_out(hand, (), rules, need=need, minimum=minimum)[0]
        assert old is not None
    assert counted_go_out(hand, (), rules, need, minimum=191) is None
    assert find_go_out(hand, (), rules, need=need, minimum=191)[0] is None


def test_a_hand_below_the_minimum_may_not_go_out_concealed():
    rules = HOUSE["classic"]
    hand = parse_cards("4H 4S 4D 4C 4H 4S 4D 5C")   # a canasta of fours (35 points) and the 5C to discard
    assert not check_go_out(hand, melds=(), score=0, rules=rules).ok            # 50 needed
    assert check_go_out(hand, melds=(), score=-100, rules=rules).ok             # 15 needed
    assert check_go_out(hand, melds=(), score=0, rules=PRESETS["classic"]).ok   # no minimum
    v = check_go_out(hand, melds=(), score=0, rules=rules)
    assert any(r.code == "below-minimum" for r in v.reasons), [r.code for r in v.reasons]


@pytest.mark.parametrize("codes, spare, fits", [
    ("KH KS KD KC KH KS KD AH", "AH", 70),    # seven kings (70) and an ace (20) to discard
    ("KH KS KD KC KH KS KD 3S", "3S", 70),    # a black three (5) to discard
    ("KH KS KD KC KH KS KD 2C", "2C", 90),    # a 2 (20): it may also join the canasta (90 in all)
])
def test_the_last_discard_counts_out_of_the_minimum(codes, spare, fits):
    rules = HOUSE["classic"]
    hand = parse_cards(codes)
    need = rules.canastas_to_go_out
    total = card_points(hand)
    for minimum in (fits - 1, fits, fits + 1, total - card_points(parse_cards(spare)), total, total + 1):
        plan = counted_go_out(hand, (), rules, need, minimum=minimum)
        old = find_go_out(hand, (), rules, need=need, minimum=minimum)[0]
        assert (plan is not None) == (old is not None), (codes, minimum, plan, old)
        if plan is not None:
            melded = list(hand)
            if plan.discard is not None:
                melded.remove(plan.discard)
            assert card_points(melded) >= minimum, (codes, minimum, plan)
    assert counted_go_out(hand, (), rules, need, minimum=fits) is not None
    assert counted_go_out(hand, (), rules, need, minimum=total + 1) is None


def test_a_no_the_search_cannot_explain_keeps_the_cores_answer(monkeypatch):
    # under a minimum the explained search has no small budget: when it gives up, the no stands (the core's) and
    # its reasons say so plainly instead of raising
    from canasta_tutor.engine import going_out

    rules = HOUSE["samba"]
    hand = parse_cards("4H 4S 4D 4C 4H 4S 4D 9C 9D")
    assert not check_go_out(hand, melds=(), score=0, rules=rules).ok

    def gives_up(*args, **kwargs):
        raise SearchTooLarge("hand: too big")

    monkeypatch.setattr(going_out, "find_go_out", gives_up)
    v = going_out.check_go_out(hand, melds=(), score=0, rules=rules)
    assert not v.ok
    assert [r.code for r in v.reasons] == ["cannot-go-out", "no-placement"]
