"""The compiled meld check (``_speedups/meld.pyx``) against the pure-Python ``check_meld`` it stands in for:
the same verdict (type, ``ok``, every field, the reasons' codes and sentences) or the same exception, on random
possible and impossible inputs over every preset and some house rules."""


import pytest
from compiled import deciding_alone, twins
from hypothesis import given
from hypothesis import strategies as st

from canasta_tutor.engine import melds, speedups
from canasta_tutor.engine.cards import ALL_CARDS, Card
from canasta_tutor.engine.rules import PRESETS, get_rules, with_options

PURE = speedups.pure_twin(melds.check_meld)
PURE_FACTS = speedups.pure_twin(melds.meld_facts)


@pytest.fixture(scope="module")
def compiled():
    return twins("check_meld")[0]


@pytest.fixture(scope="module")
def compiled_facts():
    return twins("meld_facts")[0]


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


def test_the_public_check_is_the_compiled_one_when_built(compiled, compiled_facts):
    import inspect

    import canasta_tutor

    assert canasta_tutor.check_meld is melds.check_meld
    assert twins("check_meld") == (compiled, PURE) and twins("meld_facts") == (compiled_facts, PURE_FACTS)
    for public, fast, pure in ((melds.check_meld, compiled, PURE), (melds.meld_facts, compiled_facts, PURE_FACTS)):
        assert fast is not pure and fast.__wrapped__ is pure and speedups.pure_twin(fast) is pure
        assert fast.__doc__ == pure.__doc__ and fast.__name__ == pure.__name__
        assert inspect.signature(fast) == inspect.signature(pure)
        assert public is (pure if speedups.pure() else fast)


COMMON = ["KH KS KD", "KH KS KD KC KH KS KD", "5H 5S 2C 2D 2S", "5H 2C 2D", "KH KS", "9H 9S 9D 2C 2D JK",
          "7H 8H 9H", "3S 3C 3S", "KH QS JD"]


def test_the_common_call_is_decided_in_c():
    """The compiled check and facts answer a tuple of cards, a RuleSet and a bool themselves: with the pure-Python
    functions made to fail the test, these calls still answer (and as the pure ones do)."""
    from canasta_tutor.engine.cards import parse_cards

    cases = [(parse_cards(text), get_rules(name), going_out) for text in COMMON
             for name in ("classic", "hoyle", "danish") for going_out in (False, True)]
    with deciding_alone("check_meld") as check:
        answers = [(v.ok, v.kind, v.rank, v.canasta, v.points, v.sentence)
                   for v in (check(cards, rules, going_out=going_out) for cards, rules, going_out in cases)]
    assert answers == [(v.ok, v.kind, v.rank, v.canasta, v.points, v.sentence)
                       for v in (PURE(cards, rules, going_out=going_out) for cards, rules, going_out in cases)]
    with deciding_alone("meld_facts") as facts:
        answers = [facts(cards, rules, going_out) for cards, rules, going_out in cases]
    assert answers == [PURE_FACTS(cards, rules, going_out) for cards, rules, going_out in cases]


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
