"""The compiled hand score (``_speedups/score.pyx``) against the pure-Python ``score_hand`` it stands in for: the
same sheet (type, total, rules name, itemised lines with their details) or the same exception, on random possible
and impossible hands over every preset and some house rules, in every call form."""

import random

import pytest
from compiled import deciding_alone, twins
from hypothesis import given
from hypothesis import strategies as st

from canasta_tutor.engine import scoring, speedups
from canasta_tutor.engine.cards import Card, deck_counts, parse_cards
from canasta_tutor.engine.rules import PRESETS, get_rules, with_options

PURE = speedups.pure_twin(scoring.score_hand)


@pytest.fixture(scope="module")
def compiled():
    return twins("score_hand")[0]


RULES = [get_rules(name) for name in PRESETS] + [
    with_options("classic", wild_limit="not-more-than-natural", going_out_bonus=150),
    with_options("classic", red_three_penalty=300, all_red_threes_penalty=1200, all_red_threes_bonus=900),
    with_options("classic", decks=3, jokers=6, canastas_to_go_out=0, concealed_canasta_bonus=50),
    with_options("classic", decks=1, jokers=2, max_wild=1),
    with_options("danish", black_threes_with_wild=False, mixed_canasta_bonus=250),
    with_options("samba", samba_bonus=1000, concealed_going_out_bonus=250),
    with_options("hoyle", jokers=0),
]
SEQ = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def deal(rng: random.Random, rules):
    """A team's end of hand: melds, red threes, hands and went_out, mostly as a game could leave it, sometimes not
    (a card too many, a red three in a hand, a broken meld, too few canastas to go out...)."""
    deck = [c for c, n in deck_counts(rules.decks, rules.jokers).items() for _ in range(n)]
    rng.shuffle(deck)

    def take(pred, k):
        got = [c for c in deck if pred(c)][:k]
        for c in got:
            deck.remove(c)
        return got

    melds = []
    out = rng.choice([False, False, True, "concealed"])
    canastas = rules.canastas_to_go_out if out and rng.random() < 0.85 else 0  # enough canastas to go out
    ranks = rng.sample(["A", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"], rng.randint(canastas, 5))
    for j, rank in enumerate(ranks):
        if j < canastas:
            melds.append(tuple(take(lambda c, rank=rank: c.rank == rank, rng.choice([7, 8]))
                               + take(lambda c: c.is_wild, rng.randint(0, 1))))
            continue
        if rules.sequences and rng.random() < 0.3:
            suit = rng.choice("SHDC")
            start = rng.randint(0, 8)
            run = [Card(r + suit) for r in SEQ[start:start + rng.randint(3, 7)]]
            if all(c in deck for c in run):
                for c in run:
                    deck.remove(c)
                melds.append(tuple(run))
            continue
        nat = take(lambda c, rank=rank: c.rank == rank, rng.choice([2, 3, 4, 5, 7, 8]))
        wild = take(lambda c: c.is_wild, rng.randint(0, 3))
        melds.append(tuple(rng.sample(nat + wild, len(nat + wild))))
    if out and rng.random() < 0.3:
        melds.append(tuple(take(lambda c: c.is_black_three, rng.choice([2, 3, 4]))))
    red = take(lambda c: c.is_red_three, rng.choice([0, 0, 1, 2, 3, 4, 6]))
    hands = [tuple(take(lambda c: not c.is_red_three, rng.randint(0, 8))) for _ in range(rng.randint(0, 3))]
    if out and hands and rng.random() < 0.8:
        hands[0] = ()
    spoil = rng.random()
    if spoil < 0.05 and melds:
        melds[0] += melds[0][:1] * 3  # more copies than the decks hold
    elif spoil < 0.1 and hands:
        hands[-1] += (Card("3H"),)  # a red three left in a hand
    elif spoil < 0.15:
        red.append(Card("3S"))  # not a red three
    elif spoil < 0.2 and len(melds) > 1:
        melds[1] += melds[0][:1]  # mixed ranks, or a group twice
    elif spoil < 0.25:
        melds.append(())
    elif spoil < 0.35 and melds:
        rank = next((c.rank for c in min(melds, key=len) if not c.is_wild), "K")
        melds.append(tuple(take(lambda c: c.rank == rank, 3)))  # a second group of a rank
    return melds, tuple(red), hands, out


def call_forms(rng, melds, red, hands, out, rules):
    """The same question asked in every way the old call form allows, and some it does not."""
    form = rng.choice([0, 0, 0, 0, 0, 1, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9])
    if form == 0:
        return (melds, red, hands, out, rules), {}
    if form == 1:
        return (), dict(melds=melds, red_threes=red, hands=hands, went_out=out, rules=rules)
    if form == 2:
        return (melds, red), dict(hands=hands, went_out=out, rules=rules)
    if form == 3:
        return (tuple(melds), list(red), tuple(hands)), dict(went_out=out, rules=rules.name)
    if form == 4:
        return (melds, red, hands, out, rules), dict(concealed_canastas=rng.choice([None, 0, 1, 2, -1, True]))
    if form == 5:
        return (melds, red, hands, out), dict(rules=rules, melds=melds)  # melds given twice
    if form == 6:
        return (melds, red, hands, rng.choice(["yes", "Concealed", 1, None, "out"]), rules), {}
    if form == 7:
        return ([" ".join(c.code for c in m) for m in melds], red, [list(h) for h in hands], out, None), {}
    if form == 8:
        return (melds,), dict(hands=hands, hand=hands[0] if hands else (), rules=rules)
    return (melds, red, hands, out, rules, None), {}


def outcome(check, args, kwargs):
    try:
        sheet = check(*args, **kwargs)
    except Exception as error:
        return ("raised", type(error), str(error))
    lazy = "items" not in vars(sheet)
    return (type(sheet), sheet.total, sheet.rules_name, lazy, sheet.items, sheet.explanation, sheet.total)


@given(st.integers(0, 2**32 - 1), st.sampled_from(RULES))
def test_compiled_score_answers_as_the_pure_one(compiled, seed, rules):
    rng = random.Random(seed)
    for _ in range(16):
        melds, red, hands, out = deal(rng, rules)
        args, kwargs = call_forms(rng, melds, red, hands, out, rules)
        fast = outcome(compiled, args, kwargs)
        pure = outcome(PURE, args, kwargs)
        assert fast == pure, (args, kwargs)


def test_the_compiled_score_answers_the_common_call_itself():
    """Not a fall-back in disguise: with the pure path made to fail, the common call still answers."""
    from canasta_tutor.engine.cards import parse_cards as p

    with deciding_alone("score_hand") as compiled:
        sheet = compiled([p("KH KS KD KC KH KS KD"), p("7C 7D 2S")], p("3H"), [p("5C 9D"), ()], True,
                         get_rules("classic"))
        assert sheet.total == 785
        sheet = compiled(melds=[p("KH KS KD KC KH KS JK")], red_threes=p("3H 3D 3H 3D"), hands=[()],
                         went_out="concealed", rules=get_rules("hoyle"))
        assert sheet.total == 60 + 50 + 300 + 100 + 800 + 200  # cards, mixed, concealed canasta, reds, out


def test_the_public_score_is_the_compiled_one_when_built(compiled):
    import inspect

    import canasta_tutor

    assert canasta_tutor.score_hand is scoring.score_hand
    assert twins("score_hand") == (compiled, PURE) and speedups.pure_twin(compiled) is PURE
    assert compiled is not PURE and compiled.__wrapped__ is PURE and compiled.__doc__ == PURE.__doc__
    assert inspect.signature(compiled) == inspect.signature(PURE)
    assert scoring.score_hand is (PURE if speedups.pure() else compiled)


CASES = [  # (rules, melds, red threes, hands, went_out)
    ("classic-6p", ["KH KS KD KC KH KS KD", "QH QS QD QC QH QS QD", "3S 3C 3S", "3C 3S 3C"], "", [""], True),
    ("classic-6p", ["KH KS KD KC KH KS KD", "QH QS QD QC QH QS QD", "3S 3C 3S 3C"], "3H 3D 3H 3D 3H 3D", [""], True),
    ("classic", ["KH KS KD KC KH KS KD", "3S 3C 3S"], "", ["5H"], False),
    ("classic", ["KH KS KD KC KH KS KD", "3S 3C 3S"], "", ["", "5H 3C"], True),
    ("danish", ["KH KS KD KC KH KS KD", "QH QS QD QC QH QS 2C", "3S 3C 2D"], "3H", [""], True),
    ("classic", ["KH KS KD KC KH KS KD", "KH KS 2D"], "", [""], True),
    ("samba", ["4H 5H 6H 7H 8H 9H 10H", "KH KS KD KC KH KS KD", "4S 5S 6S"], "3H 3D", ["", "AH"], "concealed"),
    ("samba", ["4H 5H 6H 7H 8H 9H 10H", "4H 5H 6H"], "", [""], False),
    ("classic", [], "3H 3D 3H 3D", ["KH 5C", "JK"], False),
    ("classic", ["7H 7S 7D"], "3H 3D 3H 3D", [], False),
    ("hoyle", ["KH KS KD KC KH KS JK", "AH AS AD AC AH AS AD"], "3H", [()], "concealed"),
    ("classic", ["KH KS KD KC KH KS JK JK"], "", [()], True),
    ("classic", ["KH KS KD KC KH KS JK 2C 2D 2S"], "", [()], True),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}:{'|'.join(c[1])}:{c[4]}")
def test_hand_written_edges(compiled, case):
    from canasta_tutor.engine.cards import parse_cards as p

    name, melds, red, hands, out = case
    args = ([p(m) for m in melds], p(red), [p(h) for h in hands], out, get_rules(name))
    assert outcome(compiled, args, {}) == outcome(PURE, args, {})


@pytest.mark.parametrize("option, value", [("red_three_bonus", 2**62), ("going_out_bonus", 2**70),
                                           ("natural_canasta_bonus", 2**62), ("decks", 2**33), ("jokers", 2**40)])
def test_house_rules_with_numbers_too_big_for_c_are_answered_in_python(option, value):
    # with_options takes any int: such a rule set leaves the compiled tables unused (it once overflowed a C long
    # silently, or raised OverflowError), and the answers are Python's exact ones, worked out here by hand
    from canasta_tutor.engine.going_out import check_go_out
    from canasta_tutor.engine.melds import check_meld
    from canasta_tutor.engine.pile import check_take_pile
    rules = with_options("classic", **{option: value})
    kings = parse_cards("KH KS KD KC KH KS KD")
    assert check_meld(parse_cards("KH KS KD"), rules).ok
    assert check_go_out(parse_cards("QH QS QD 5S"), [kings], 0, rules).ok
    assert check_take_pile(parse_cards("QH QS 5S 6D"), [kings], 0, parse_cards("4C QD"), rules).ok
    red, natural, going_out = (rules.red_three_bonus, rules.natural_canasta_bonus, rules.going_out_bonus)
    assert scoring.score_hand([parse_cards("KH KS KD")], parse_cards("3H 3D"), [], False, rules).total == 2 * red + 30
    # two natural canastas (70 + 70 points) and going out
    assert (scoring.score_hand([kings, parse_cards("QH QS QD QC QH QS QD")], (), [()], True, rules).total
            == 2 * natural + 140 + going_out)
