"""The compiled "take the pile" check (``canasta_tutor/engine/_speedups/take.pyx``) answers exactly as the pure-Python
``check_take_pile`` of ``pile.py``: the same verdict type and fields, the same reasons (written when read), the same
exception type and message, on possible and impossible situations, bad arguments and every call form, over every
preset and some house rules. Skipped only where the module is not built and this is not CI."""

from dataclasses import replace

import pytest
from compiled import deciding_alone, twins
from hypothesis import example, given, settings
from hypothesis import strategies as st

from canasta_tutor.engine import pile, speedups
from canasta_tutor.engine.cards import ALL_CARDS, Card, parse_cards
from canasta_tutor.engine.rules import CLASSIC, PRESETS, get_rules, with_options
from canasta_tutor.engine.situation import Situation
from canasta_tutor.engine.verdict import LazyReasons

# attached as pile.py attaches it, also when this run asks for the pure engine (the whole module is skipped where
# the compiled module is not built, but in CI)
COMPILED, PURE = twins("check_take_pile")

HOUSE = [with_options("classic", pile_always_frozen=True), with_options("classic", one_card_pile_rule=True),
         with_options("classic", black_three_freezes_pile=True, red_three_freezes_pile=False),
         with_options("classic", take_onto_canasta=False, take_with_natural_and_wild=False),
         with_options("hoyle", canastas_to_go_out=0), with_options("danish", decks=1, jokers=2, hand_size=5),
         with_options("classic", wild_limit="not-more-than-natural", max_wild=1),
         with_options("classic", opening_table=((None, 0), (0, 30), (2000, 200))),
         with_options("classic", max_wild=0), with_options("classic-3p", canastas_to_go_out=3)]
RULES = [get_rules(name) for name in sorted(PRESETS)] + HOUSE
_WILDS = [c for c in ALL_CARDS if c.is_wild]
_NOT_RED = [c for c in ALL_CARDS if not c.is_red_three]
_RED = [c for c in ALL_CARDS if c.is_red_three]


def outcome(check, *args, **kwargs):
    """What a call gives: the exception's type and message, or the verdict's type, fields and reasons' text."""
    try:
        v = check(*args, **kwargs)
        return ("answers", type(v), v.ok, v.method, v.cards, v.meld, v.top,
                tuple((r.code, r.text) for r in v.reasons), v.sentence)
    except Exception as error:  # noqa: BLE001 - every exception must be the same (also one raised by the reasons)
        return ("raises", type(error), str(error))


def same(*args, **kwargs):
    fast, slow = outcome(COMPILED, *args, **kwargs), outcome(PURE, *args, **kwargs)
    assert fast == slow, (args, kwargs)
    return fast


@st.composite
def situations(draw):
    """A team's table, a hand and a pile around one rank (the top card's, mostly): pairs, groups of that rank with
    wild cards, canastas, small and big piles, opened and unopened teams; now and then more copies than the decks
    hold, or a red three in hand (both raise)."""
    rules = draw(st.sampled_from(RULES))
    rank = draw(st.sampled_from(["4", "7", "9", "K", "A"]))
    same_rank = [c for c in ALL_CARDS if c.rank == rank]
    top = draw(st.one_of(st.sampled_from(same_rank), st.sampled_from(same_rank), st.sampled_from(ALL_CARDS)))
    pile_cards = draw(st.lists(st.one_of(st.sampled_from(_NOT_RED), st.sampled_from(_RED)), max_size=5)) + [top]
    hand = (draw(st.lists(st.sampled_from(same_rank), max_size=3)) + draw(st.lists(st.sampled_from(_WILDS), max_size=3))
            + draw(st.lists(st.sampled_from(_NOT_RED), max_size=draw(st.sampled_from([2, 6, 12])))))
    if draw(st.sampled_from([False] * 30 + [True])):
        hand.append(draw(st.sampled_from(_RED)))
    melds = []
    for r in draw(st.lists(st.sampled_from([rank, rank, "5", "Q", "8"]), max_size=3)):
        naturals = draw(st.lists(st.sampled_from([c for c in ALL_CARDS if c.rank == r]), min_size=1, max_size=8))
        melds.append(tuple(naturals + draw(st.lists(st.sampled_from(_WILDS), max_size=3))))
    if draw(st.sampled_from([False] * 15 + [True])):
        melds.append(tuple(draw(st.lists(st.sampled_from(ALL_CARDS), min_size=1, max_size=4))))
    score = draw(st.one_of(st.sampled_from([-50, 0, 800, 1500, 2500, 3000, 10 ** 9, -10 ** 9]),
                           st.integers(-6000, 6000)))
    # mostly a possible situation: no card beyond two packs and four jokers
    if draw(st.sampled_from([True] * 12 + [False])):
        left = {c: 4 if c.rank == "JK" else 2 for c in ALL_CARDS}

        def deal(cards):
            kept = [c for c in cards if left[c] > 0 and not left.__setitem__(c, left[c] - 1)]
            return kept

        pile_cards = deal(pile_cards[-1:] + pile_cards[:-1])
        pile_cards = pile_cards[1:] + pile_cards[:1]
        hand = deal(hand)
        melds = [g for g in (tuple(deal(list(m))) for m in melds) if g]
    return (rules, tuple(draw(st.permutations(hand))), melds, score, tuple(pile_cards), draw(st.booleans()))


@given(situations())
@example((CLASSIC, parse_cards("AH AS"), [], 0, parse_cards("9D AD"), False))
@example((CLASSIC, parse_cards("AH AS 9C"), [], 0, parse_cards("AD"), False))
@example((CLASSIC, parse_cards("AH AS 2C 9C"), [], 0, parse_cards("AD"), False))
@example((CLASSIC, parse_cards("AH AS 2C 9C JK"), [], 0, parse_cards("AD"), False))
@example((CLASSIC, parse_cards("7H 7S"), [parse_cards("KH KS KD KC KH KS 2C")], 0, parse_cards("7D"), False))
@example((CLASSIC, parse_cards("7H 7S 4C"), [parse_cards("KH KS KD KC KH KS")], 0, parse_cards("7D"), False))
@example((CLASSIC, parse_cards("7H"), [parse_cards("7S 7C 7D 7H 7S 2C")], 0, parse_cards("7D"), False))
@example((get_rules("classic-2p"), parse_cards("7H"), [parse_cards("7S 7C 7D 7H 7S 2C")], 0, parse_cards("7D"), False))
@example((HOUSE[1], parse_cards("7H"), [parse_cards("7S 7C 7D")], 0, parse_cards("7D"), False))
@example((HOUSE[3], parse_cards("9H 4C 5C"), [parse_cards("7S 7C 7D 7H 7S 7C 7D")], 0, parse_cards("7D"), False))
@example((CLASSIC, parse_cards("9H 2S 2C 5D 6C"), [parse_cards("KH KS KD")], 0, parse_cards("4C 9D"), False))
@example((CLASSIC, parse_cards("9H JK 2D 5D 6C"), [parse_cards("KH KS KD")], 0, parse_cards("4C 9D"), False))
@example((CLASSIC, parse_cards("KH KS"), [], 1500, parse_cards("3H KD"), False))
@example((CLASSIC, (), [], 0, (), False))
@example((CLASSIC, parse_cards("7H 7S 2C 9D"), [], 0, parse_cards("4C 5D 7D"), False))       # 35 points: below 50
@example((CLASSIC, parse_cards("7H 7S 2C JK 9D"), [], 0, parse_cards("4C 5D 7D"), False))    # 85
@example((CLASSIC, parse_cards("KH KS 2C 9D 9C"), [], 0, parse_cards("4C 5D KD"), False))    # 50: just enough
@example((CLASSIC, parse_cards("KH KS 2C 9D 9C"), [], 1500, parse_cards("4C 5D KD"), False))
@example((CLASSIC, parse_cards("AH AS 2C 9D 9C 9S QH QS JK"), [], 3000, parse_cards("4C 5D AD"), False))
@example((CLASSIC, parse_cards("AH AS 2C 9D 9C QH QS JK 2D"), [], 3000, parse_cards("4C 5D AD"), False))
@example((HOUSE[3], parse_cards("7H 7S 4C 5C"), [parse_cards("7S 7C 7D 7H 7C 7D")], 0, parse_cards("8D 7D"), False))
@example((HOUSE[3], parse_cards("9H 4C 5C"), [parse_cards("7S 7C 7H 7S 7C 2C JK")], 0, parse_cards("8D 7D"), False))
@example((CLASSIC, parse_cards("7H 7S 5H 5S 5D 9D"), [], 0, parse_cards("4C 5C 7D"), False))  # 30 points
@example((CLASSIC, parse_cards("7H 7S"), [parse_cards("KH KS KD")], 0, parse_cards("3H 5C 7D"), False))
@example((CLASSIC, parse_cards("7H 7S"), [parse_cards("KH KS KD KC KH KS")], 0, parse_cards("5C 7D"), False))
@example((CLASSIC, parse_cards("7H 7S"), [parse_cards("KH KS KD KC KH KS 2C")], 0, parse_cards("5C 7D"), False))
@example((CLASSIC, parse_cards("7H"), [parse_cards("7S 7C 7D 7H 7S 2C")], 0, parse_cards("7D"), False))
@example((CLASSIC, parse_cards("KH KS"), [], 0, parse_cards("5C 2C"), False))
@example((HOUSE[6], parse_cards("5H 5S 5D 2C JK 9H 9S QH QS"), [], 0, parse_cards("8C 5C"), False))
def test_the_compiled_check_answers_as_the_pure_one(case):
    rules, hand, melds, score, pile_cards, stock_empty = case
    same(hand, melds, score, pile_cards, rules)
    same(hand, melds, score, pile_cards, rules, stock_empty=stock_empty)
    same(hand, tuple(melds), score, pile_cards, rules)
    same(hand=hand, melds=melds, score=score, pile=pile_cards, rules=rules, stock_empty=stock_empty)
    same(hand, melds, score, pile_cards)
    try:
        situation = Situation(hand=hand, melds=melds, score=score, pile=pile_cards, rules=rules,
                              stock_empty=stock_empty)
    except Exception:  # noqa: BLE001 - an impossible situation: the call forms above compared its error
        return
    same(situation)


BAD = [
    lambda h, m, s, p, r: (("7H 7S KD", m, s, p, r), {}),                       # notation
    lambda h, m, s, p, r: ((list(h), m, s, p, r), {}),                          # a list of cards
    lambda h, m, s, p, r: ((h + ("7H",), m, s, p, r), {}),                      # a string among cards
    lambda h, m, s, p, r: ((h + (7,), m, s, p, r), {}),                         # not a card at all
    lambda h, m, s, p, r: ((("7H",) + h, m, s, p, r), {}),
    lambda h, m, s, p, r: ((h, m, True, p, r), {}),                             # scores
    lambda h, m, s, p, r: ((h, m, 1.5, p, r), {}),
    lambda h, m, s, p, r: ((h, m, 10 ** 12, p, r), {}),
    lambda h, m, s, p, r: ((h, m, -(10 ** 9) - 1, p, r), {}),
    lambda h, m, s, p, r: ((h, m, 2 ** 70, p, r), {}),
    lambda h, m, s, p, r: ((h, m, "0", p, r), {}),
    lambda h, m, s, p, r: ((h, ["KH KS KD"], s, p, r), {}),                      # melds
    lambda h, m, s, p, r: ((h, [()], s, p, r), {}),
    lambda h, m, s, p, r: ((h, [list(g) for g in m], s, p, r), {}),
    lambda h, m, s, p, r: ((h, h, s, p, r), {}),
    lambda h, m, s, p, r: ((h, None, s, p, r), {}),
    lambda h, m, s, p, r: ((h, 5, s, p, r), {}),
    lambda h, m, s, p, r: ((h, m, s, list(p), r), {}),                          # the pile
    lambda h, m, s, p, r: ((h, m, s, "5D 9S 7C", r), {}),
    lambda h, m, s, p, r: ((h, m, s, (), r), {}),
    lambda h, m, s, p, r: ((h, m, s, p, "classic"), {}),                        # rules
    lambda h, m, s, p, r: ((h, m, s, p, None), {}),
    lambda h, m, s, p, r: ((h, m, s, p, "checkers"), {}),
    lambda h, m, s, p, r: ((h, m, s, p, get_rules("samba")), {}),
    lambda h, m, s, p, r: ((h, m, s, p, r), {"stock_empty": "yes"}),            # keywords
    lambda h, m, s, p, r: ((h, m, s, p, r), {"stock_empty": None}),
    lambda h, m, s, p, r: ((h, m, s, p, r), {"hand": h}),
    lambda h, m, s, p, r: ((h, m, s, p, r), {"shown": h}),
    lambda h, m, s, p, r: ((h, m, s, p, r), {"cards": h}),
    lambda h, m, s, p, r: ((h, m, s, p, r, False), {}),
    lambda h, m, s, p, r: ((), {"hand": h, "pile": p}),
    lambda h, m, s, p, r: ((h,), {}),
    lambda h, m, s, p, r: ((), {}),
    lambda h, m, s, p, r: ((h + (Card("3H"),), m, s, p, r), {}),                # a red three in hand
    lambda h, m, s, p, r: ((h + h + h + h, m, s, p, r), {}),                    # copies, and the hand's size
    lambda h, m, s, p, r: ((tuple(ALL_CARDS[4:]) * 1 + h, m, s, p, r), {}),     # a very big hand
    lambda h, m, s, p, r: ((h, m + [(Card("JK"),) * 5], s, p, r), {}),          # five jokers
]


@pytest.mark.parametrize("which", range(len(BAD)))
@settings(max_examples=15)
@given(case=situations())
def test_bad_arguments_get_the_pure_answer_or_error(case, which):
    rules, hand, melds, score, pile_cards, _stock_empty = case
    args, kwargs = BAD[which](hand, melds, score, pile_cards, rules)
    same(*args, **kwargs)


def test_a_situation_with_other_fields_and_a_situation_with_keywords():
    s = Situation(hand="7H 7S 4C", melds=["KH KS KD"], pile="5D 7C", red_threes="3H")
    assert same(s)[2] is True
    same(s, score=1500)
    same(s, pile="5D 2C 7C")
    with pytest.raises(TypeError):
        COMPILED(s, s)


def test_the_public_function_is_the_compiled_one_with_the_pure_ones_name_and_help():
    import inspect

    import canasta_tutor

    assert canasta_tutor.check_take_pile is pile.check_take_pile is (PURE if speedups.pure() else COMPILED)
    assert PURE is speedups.pure_twin(pile.check_take_pile) is speedups.pure_twin(COMPILED) is COMPILED.__wrapped__
    assert COMPILED is not PURE and twins("check_take_pile") == (COMPILED, PURE)
    assert COMPILED.__name__ == "check_take_pile" and COMPILED.__doc__ == PURE.__doc__
    assert inspect.signature(COMPILED) == inspect.signature(PURE)


def test_the_common_call_is_decided_in_c():
    """The compiled check answers the game's call (tuples of cards, melds, an int score, rules without sequences)
    itself: with the pure-Python check made to fail the test, these calls still answer, as the pure one does."""
    melds = [parse_cards("KH KS KD"), parse_cards("QH QS QD QC QH QS QD")]
    cases = [(parse_cards("7H 7S 4C"), melds, 0, parse_cards("5D 7C"), CLASSIC),  # a pair
             (parse_cards("7H 4C 9S"), melds, 0, parse_cards("5D 7C"), CLASSIC),  # no way to meld the top card
             (parse_cards("KC 4C 9S"), melds, 3000, parse_cards("5D 2C KD"), CLASSIC),  # frozen, no pair
             (parse_cards("KC 4C 9S"), melds, 0, parse_cards("5D 7C KD"), CLASSIC),  # a lay-off
             (parse_cards("7H JK 4C"), melds, 0, parse_cards("5D 7C"), get_rules("classic")),  # natural and wild
             (parse_cards("7H 7S KD 4C"), [], 0, parse_cards("5D 9S 7C"), get_rules("hoyle")),  # below the minimum
             (parse_cards("7H 7S 4C"), melds, 0, parse_cards("5D 2C"), get_rules("danish"))]  # a wild card on top
    with deciding_alone("check_take_pile") as check:
        answers = [outcome(check, *case) for case in cases]
        answers.append(outcome(check, Situation(hand=parse_cards("7H 7S 4C"), melds=melds, pile=parse_cards("5D 7C"))))
    assert answers[:-1] == [outcome(PURE, *case) for case in cases]
    assert answers[-1] == answers[0]


def test_the_reasons_are_written_when_read():
    v = COMPILED(parse_cards("7H 7S 4C"), [parse_cards("KH KS KD")], 0, parse_cards("5D 7C"), CLASSIC)
    assert isinstance(v.reasons, LazyReasons) and not hasattr(v.reasons, "_value")
    assert v.ok and v.method == "pair" and v.cards == parse_cards("7H 7S") and v.meld == parse_cards("7C 7H 7S")
    assert v.codes[0] == "take-with-pair" and hasattr(v.reasons, "_value")


def test_no_answer_is_kept_between_calls():
    """The lazy reasons hold their own copy of the melds: changing the caller's list afterwards changes nothing."""
    melds = [parse_cards("KH KS KD")]
    v = COMPILED(parse_cards("7H 4C 9S"), melds, 0, parse_cards("5D 7C"), CLASSIC)
    melds.append(parse_cards("7S 7D 7C"))
    assert not v.ok and "no meld of 7s" in v.sentence
    w = COMPILED(parse_cards("7H 4C 9S"), melds, 0, parse_cards("5D 7C"), CLASSIC)
    assert w.ok and w.method == "lay-off" and w is not v


def test_house_rules_made_on_the_fly_are_read_each_time():
    """The rule tables are kept per rule set object: a new rule set with other options is read afresh."""
    hand, melds, top = parse_cards("7H 2C 4C 9S"), [parse_cards("KH KS KD")], parse_cards("5D 7C")
    for _ in range(40):
        assert COMPILED(hand, melds, 0, top, with_options("classic", take_with_natural_and_wild=True)).ok
        assert not COMPILED(hand, melds, 0, top, with_options("classic", take_with_natural_and_wild=False)).ok
    assert not COMPILED(hand, melds, 0, top, replace(CLASSIC, pile_always_frozen=True)).ok


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_copies_up_to_the_decks_and_one_more(rules):
    """Exactly as many copies as the decks hold are read; one more is the pure path's clear error."""
    for card, allowed in ((Card("KD"), rules.decks), (Card("JK"), rules.jokers), (Card("2C"), rules.decks)):
        for n in (allowed, allowed + 1):
            melds = [(Card("KH"), Card("KS")) + (card,) * (n - 1)]
            same(parse_cards("KC KC 5D 9H"), melds, 0, (Card("4C"), card), rules)
            same((card,) * n + parse_cards("9S 9H"), [parse_cards("9D 9C 9S")], 0, parse_cards("4C 9H"), rules)


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_hand_sizes_up_to_the_limit_and_one_more(rules):
    from canasta_tutor.engine.situation import max_hand_cards

    cap = max_hand_cards(rules)
    deck = [c for c in ALL_CARDS if not c.is_red_three and c.rank != "JK"] * rules.decks
    for n in (cap - 1, cap, cap + 1):
        hand = tuple(deck[:n - 2]) + parse_cards("9H 9S")
        same(hand[:n], [parse_cards("KH KS KD")], 0, parse_cards("4C 9D"), rules)
