"""No input may end in an internal error: random possible situations of every preset, fed to every public
check and to the puzzle solver, raise nothing but the project's own :class:`CanastaError` family.

Big hands (up to the hand-size cap of each preset, and beyond it) are here too; how long the worst of
them takes is measured in ``benchmarks/run.py`` (never timed in a test).
"""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from canasta_tutor import (
    check_add_to_meld,
    check_frozen,
    check_go_out,
    check_meld,
    check_opening,
    check_stopped,
    check_take_pile,
    check_team_melds,
    find_go_out,
    max_meld_points,
    score_hand,
)
from canasta_tutor.engine.cards import ALL_CARDS, Card, format_cards, parse_cards
from canasta_tutor.engine.errors import CanastaError
from canasta_tutor.engine.melds import check_swap
from canasta_tutor.engine.pile import check_shown_cards
from canasta_tutor.engine.rules import PRESETS, get_rules
from canasta_tutor.engine.situation import max_hand_cards
from canasta_tutor.puzzles.format import KINDS, puzzle_from_mapping
from canasta_tutor.puzzles.solver import solve

NATURAL_RANKS = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def _limit(rules, card: Card) -> int:
    return rules.jokers if card.rank == "JK" else rules.decks


@st.composite
def situations(draw, hand_sizes):
    """A possible situation: the team's legal melds, a hand, a pile, a score, red threes."""
    rules = get_rules(draw(st.sampled_from(sorted(PRESETS))))
    used: Counter = Counter()
    melds, ranks = [], set()
    for _ in range(draw(st.integers(0, 4))):
        rank = draw(st.sampled_from(NATURAL_RANKS))
        if rank in ranks:
            continue
        naturals = []
        for suit in draw(st.lists(st.sampled_from("HSDC"), min_size=2, max_size=9)):
            card = Card(rank + suit)
            if used[card] < _limit(rules, card):
                used[card] += 1
                naturals.append(card)
        wilds = []
        for code in draw(st.lists(st.sampled_from(["2C", "2D", "JK"]), max_size=rules.wild_capacity(len(naturals)))):
            card = Card(code)
            if used[card] < _limit(rules, card):
                used[card] += 1
                wilds.append(card)
        meld = tuple(naturals + wilds)
        if check_meld(meld, rules).ok:
            melds.append(meld)
            ranks.add(rank)
        else:
            used -= Counter(meld)
    if rules.sequences and draw(st.booleans()):
        suit = draw(st.sampled_from("HSDC"))
        start = draw(st.integers(0, 8))
        run = tuple(Card(r + suit) for r in NATURAL_RANKS[start:start + draw(st.integers(3, 7))])
        if len(run) >= 3 and all(used[c] < _limit(rules, c) for c in run):
            used += Counter(run)
            melds.append(run)
    pool = [c for c in ALL_CARDS for _ in range(_limit(rules, c) - used[c])]
    n_hand = draw(hand_sizes(rules))
    n_pile = draw(st.integers(0, 8))
    picked = draw(st.lists(st.integers(0, len(pool) - 1), min_size=min(len(pool), n_hand + n_pile),
                           max_size=min(len(pool), n_hand + n_pile), unique=True))
    cards = [pool[i] for i in picked]
    hand = [c for c in cards[:n_hand] if not c.is_red_three] or [Card("KH")]
    pile = cards[n_hand:]
    red = [c for c in pile if c.is_red_three][:1]
    pile = [c for c in pile if c not in red]
    score = draw(st.sampled_from([-500, 0, 1495, 1500, 3000, 7000]))
    return rules, tuple(hand), tuple(pile), melds, score, tuple(red), draw(st.sampled_from([False, True, "concealed"]))


def _only_our_errors(call, *args, **kwargs):
    try:
        return call(*args, **kwargs)
    except CanastaError:
        return None


def _every_check(rules, hand, pile, melds, score, red, went_out):
    _only_our_errors(check_meld, hand[:5], rules, going_out=True)
    if melds:
        _only_our_errors(check_add_to_meld, melds[0], hand[:3], rules)
    _only_our_errors(check_team_melds, melds, rules)
    _only_our_errors(check_opening, melds, score, rules)
    _only_our_errors(check_frozen, pile, melds, rules)
    _only_our_errors(check_stopped, pile)
    _only_our_errors(check_take_pile, hand, melds, score, pile, rules)
    _only_our_errors(check_shown_cards, hand, melds, score, pile, hand[:2], rules)
    _only_our_errors(check_go_out, hand, melds, score, rules)
    _only_our_errors(find_go_out, hand, melds, rules)
    _only_our_errors(score_hand, melds, red, [hand], went_out, rules)
    _only_our_errors(max_meld_points, hand, rules)
    _only_our_errors(check_swap, hand, melds, rules)


def _every_puzzle(rules, hand, pile, melds, score, red, went_out):
    codes = lambda cards: format_cards(cards, symbols=False)  # noqa: E731
    fields = {"card-points": {"cards": codes(hand)},
              "meld": {"cards": codes(hand[:6]), "going_out": bool(went_out)},
              "opening": {"melds": [codes(m) for m in melds], "score": score},
              "freeze": {"pile": codes(pile), "melds": [codes(m) for m in melds]},
              "take-pile": {"hand": codes(hand), "pile": codes(pile), "melds": [codes(m) for m in melds],
                            "score": score},
              "go-out": {"hand": codes(hand), "melds": [codes(m) for m in melds], "score": score},
              "score-hand": {"melds": [codes(m) for m in melds], "red_threes": codes(red), "hands": [codes(hand)],
                             "went_out": went_out}}
    assert set(fields) == set(KINDS)
    for kind, situation in fields.items():
        raw = {"id": "p", "kind": kind, **situation}
        puzzle = _only_our_errors(puzzle_from_mapping, raw, rules=rules)
        if puzzle is not None:
            _only_our_errors(solve, puzzle)


def _usual(rules):
    return st.integers(1, 16)


def _big(rules):
    return st.integers(rules.hand_size, max_hand_cards(rules) + 5)


def _case(preset, hand, pile, melds, score=0, red="", went_out=True):
    return (get_rules(preset), parse_cards(hand), parse_cards(pile), [parse_cards(m) for m in melds], score,
            parse_cards(red), went_out)


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@example(_case("classic", "9H 9S 9C", "9D", ["7S 7D 7H 7C 7S 7D 7H"]))   # once an IndexError
@example(_case("classic", "7H 7S 7D 7C 7H 2C", "9D 7S", []))
@example(_case("samba", "9C 5D 5S", "4C 9S", ["9H 9S JK", "KH KS KD KC KH KS KD", "QH QS QD QC QH QS QD"]))
@given(situations(_usual))
def test_every_check_and_the_solver_raise_only_canasta_errors(situation):
    _every_check(*situation)
    _every_puzzle(*situation)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(situations(_big))
def test_big_hands_raise_only_canasta_errors(situation):
    rules, hand, pile, melds, score, _red, _went_out = situation
    for call, args in ((check_go_out, (hand, melds, score, rules)),
                       (check_take_pile, (hand, melds, score, pile, rules)),
                       (max_meld_points, (hand, rules))):
        _only_our_errors(call, *args)


def test_a_hand_beyond_the_cap_is_a_clear_error():
    import pytest

    from canasta_tutor.engine.errors import SituationError

    rules = get_rules("samba")
    # every card of the three decks but the red threes: more than a hand can hold while three others hold one each
    hand = [c for c in ALL_CARDS if not c.is_red_three for _ in range(rules.jokers if c.rank == "JK" else 3)]
    with pytest.raises(SituationError, match=r"^hand: 156 cards, but a hand under samba holds at most 153"):
        check_go_out(hand, [], 0, rules)
