"""The compiled meld check (``_speedups/meld.pyx``) against the pure-Python ``check_meld`` it stands in for:
the same verdict (type, ``ok``, every field, the reasons' codes and sentences) or the same exception, on random
possible and impossible inputs over every preset and some house rules."""


import pytest
from compiled import compiled_module
from hypothesis import given
from hypothesis import strategies as st

from canasta_tutor.engine import melds, speedups
from canasta_tutor.engine.cards import ALL_CARDS, Card
from canasta_tutor.engine.rules import PRESETS, get_rules, with_options

PURE = melds._check_meld_py
PURE_FACTS = melds._meld_facts_py


@pytest.fixture(scope="module")
def compiled():
    module = compiled_module("meld")
    return melds._compiled_check_meld(module, PURE)


@pytest.fixture(scope="module")
def compiled_facts(compiled):
    return melds._compiled_meld_facts(compiled_module("meld"), PURE_FACTS)


RULES = [get_rules(name) for name in PRESETS] + [
    with_options("classic", wild_limit="not-more-than-natural"),
    with_options("classic", wild_limit="fewer-than-natural", max_wild=2),
    with_options("classic", max_wild=0),
    with_options("classic", max_wild=5, black_threes_with_wild=True),
    with_options("classic", decks=1, jokers=2),
    with_options("classic", decks=3, jokers=0),
    with_options("classic", sequences=True),
    with_options("samba", wild_limit="not-more-than-natural", decks=2),
    with_options("danish", jokers=1),
]
RULE_NAMES = list(PRESETS) + ["samba", "checkers"]

by_rank = {}
for _c in ALL_CARDS:
    by_rank.setdefault(_c.rank, []).append(_c)
WILDS = by_rank["2"] + by_rank["JK"]
THREES = by_rank["3"]


@st.composite
def card_lists(draw):
    """Cards as a game makes them (one rank and some wild cards, a run of one suit, black threes) and as it
    never would (any cards, too many copies)."""
    shape = draw(st.sampled_from(["rank", "rank", "run", "threes", "any"]))
    if shape == "rank":
        rank = draw(st.sampled_from([r for r in by_rank if r not in ("2", "JK")]))
        cards = draw(st.lists(st.sampled_from(by_rank[rank]), max_size=12))
        cards += draw(st.lists(st.sampled_from(WILDS), max_size=draw(st.sampled_from([1, 3, 6]))))
        if draw(st.integers(0, 9)) == 0:
            cards.append(draw(st.sampled_from(ALL_CARDS)))
    elif shape == "run":
        suit = draw(st.sampled_from("SHDC"))
        order = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
        start = draw(st.integers(0, 12))
        length = draw(st.integers(0, 9))
        cards = [Card(r + suit) for r in order[start:start + length]]
        if draw(st.booleans()):
            cards += draw(st.lists(st.sampled_from(WILDS + THREES), max_size=2))
    elif shape == "threes":
        cards = draw(st.lists(st.sampled_from(THREES), max_size=6))
        cards += draw(st.lists(st.sampled_from(WILDS + list(ALL_CARDS[:8])), max_size=2))
    else:
        cards = draw(st.lists(st.sampled_from(ALL_CARDS), max_size=20))
    cards = draw(st.permutations(cards))
    return tuple(cards) if draw(st.integers(0, 4)) else list(cards)


bad_inputs = st.one_of(
    st.sampled_from(["KH KS KD", "KH KS XX", "", "7H, 7S 2C", "JK JK JK JK JK"]),
    st.tuples(st.sampled_from(ALL_CARDS), st.sampled_from(["7H", 7, None, "XX"])),
    st.tuples(st.sampled_from(["7H", 7, None]), st.sampled_from(ALL_CARDS)),
    st.sampled_from([None, 7, ()]),
    st.lists(st.sampled_from(["KH", "2C", "kd"]), max_size=4),
)


def outcome(check, cards, rules, going_out):
    try:
        v = check(cards, rules, going_out=going_out)
    except Exception as error:  # the same exception, same message
        return ("raised", type(error), str(error))
    return (type(v), v.ok, v.kind, v.rank, v.canasta, v.points, v.cards,
            [(r.code, r.text) for r in v.reasons], v.sentence)


def same(compiled, cards, rules, going_out):
    fast = outcome(compiled, cards, rules, going_out)
    pure = outcome(PURE, cards, rules, going_out)
    assert fast == pure, (cards, getattr(rules, "name", rules), going_out)


@given(st.lists(st.tuples(card_lists(), st.sampled_from(RULES), st.booleans()), min_size=1, max_size=12))
def test_compiled_meld_check_answers_as_the_pure_one(compiled, cases):
    for cards, rules, going_out in cases:
        same(compiled, cards, rules, going_out)


@given(st.one_of(bad_inputs, card_lists()), st.one_of(st.sampled_from(RULES), st.sampled_from(RULE_NAMES), st.none()),
       st.sampled_from([False, True, 0, 1, None, "yes"]))
def test_compiled_meld_check_fails_or_answers_as_the_pure_one_on_any_call(compiled, cards, rules, going_out):
    same(compiled, cards, rules, going_out)


def test_every_meld_of_every_preset_near_its_limits(compiled):
    """Every one-rank group of 0-9 natural cards and 0-5 wild cards, with and without a black/red three."""
    for rules in RULES:
        for nat in range(0, 10):
            for twos in range(0, 5):
                for jokers in range(0, 3):
                    base = by_rank["K"][:min(nat, 4)] * 3
                    cards = tuple(base[:nat]) + tuple(by_rank["2"][:twos]) + (Card("JK"),) * jokers
                    for extra in ((), (Card("3S"),), (Card("3H"),)):
                        for going_out in (False, True):
                            same(compiled, cards + extra, rules, going_out)


def test_black_threes_and_samba_sequences(compiled):
    cases = ["3S 3C 3S", "3S 3C 3S 3C", "3S 3C 2D", "3S 3C JK", "3S 3C", "3S 3C 3S 3C 3S", "3S 3H 3C",
             "3S 3C 7H", "4H 5H 6H", "4H 5H 6H 7H 8H 9H 10H", "4H 5H 6H 7H 8H 9H 10H JH", "QH KH AH", "JH QH KH AH",
             "AH 2H 3H", "AH 2H", "4H 6H 7H", "4H 5H 5H 6H", "4H 5H 2C", "4H 5S 6H", "3H 4H 5H", "KH KS", "KH 2C"]
    for text in cases:
        from canasta_tutor.engine.cards import parse_cards

        cards = parse_cards(text)
        for rules in RULES:
            for going_out in (False, True):
                same(compiled, cards, rules, going_out)


def test_the_public_check_is_the_compiled_one_when_built(compiled):
    import canasta_tutor

    assert canasta_tutor.check_meld is melds.check_meld
    if speedups.load("meld") is not None:
        assert melds.check_meld is not PURE and melds.check_meld.__wrapped__ is PURE
        assert melds.check_meld.__doc__ == PURE.__doc__ and melds.check_meld.__name__ == "check_meld"


def facts_outcome(facts, cards, rules, going_out, copies_checked):
    try:
        return facts(cards, rules, going_out, copies_checked=copies_checked)
    except Exception as error:
        return ("raised", type(error), str(error))


@given(st.lists(st.tuples(card_lists(), st.sampled_from(RULES), st.sampled_from([False, True, 0, None]),
                          st.booleans()), min_size=1, max_size=12))
def test_compiled_meld_facts_answer_as_the_pure_ones(compiled_facts, cases):
    """meld_facts, the sentence-free judgement the engine's inner loops use (copies_checked: the caller vouches for
    the copies, so the pure function may answer without checking them: the compiled one hands those to it)."""
    for cards, rules, going_out, copies_checked in cases:
        fast = facts_outcome(compiled_facts, cards, rules, going_out, copies_checked)
        pure = facts_outcome(PURE_FACTS, cards, rules, going_out, copies_checked)
        assert fast == pure, (cards, rules.name, going_out, copies_checked)
        if not isinstance(fast, tuple) or fast[0] != "raised":
            v = PURE(tuple(cards), rules, going_out=bool(going_out))
            if fast is not None or not copies_checked:
                assert (fast is not None) == v.ok or "impossible-copies" in v.codes
