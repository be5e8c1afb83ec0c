"""The compiled ``check_go_out`` (``canasta_tutor/engine/_speedups/goout.pyx``) answers exactly as the pure-Python one.

Differential tests on random situations, possible and impossible, and on bad input, over every preset and some
house rules: the same ``ok``, the same fields (the plan included), the same reasons' codes and sentences, or the
same exception type and message. A test also makes sure the compiled module decides the common call itself (a
module that handed every call to Python would pass the comparisons and speed nothing up).

Skipped only where the module is not built and not in CI (the CI machine builds it: there the tests must run).
"""

import pickle

import pytest
from compiled import deciding_alone, twins
from hypothesis import example, given
from hypothesis import strategies as st

from canasta_tutor.engine import going_out, speedups
from canasta_tutor.engine.cards import ALL_CARDS, NATURAL_RANKS, Card, format_cards
from canasta_tutor.engine.rules import MAX_SCORE, PRESETS, with_options
from canasta_tutor.engine.situation import Situation


@pytest.fixture(scope="module")
def fast():
    """The compiled entry, attached as canasta_tutor.engine.going_out attaches it (also when the session runs with
    CANASTA_TUTOR_PURE=1)."""
    return twins("check_go_out")[0]


PURE = speedups.pure_twin(going_out.check_go_out)

# --- rule sets: every preset and house rules that move each limit the compiled path reads -----------------------------
FAST_RULES = [PRESETS[name] for name in sorted(PRESETS) if name != "samba"] + [
    with_options("classic", black_threes_with_wild=True),
    with_options("classic", canastas_to_go_out=0),
    with_options("classic", canastas_to_go_out=3),
    with_options("classic", wild_limit="fewer-than-natural", max_wild=2),
    with_options("classic", wild_limit="not-more-than-natural", max_wild=4),
    with_options("hoyle", max_wild=1),
    with_options("danish", max_wild=0),
]
RULES = FAST_RULES + [
    PRESETS["samba"],
    with_options("samba", wild_swap=False),
    with_options("classic", wild_swap=True),
    with_options("classic", concealed_needs_no_minimum=False),
    with_options("classic", concealed_needs_no_minimum=False, opening_table=((None, 0),)),
    with_options("classic", decks=1, jokers=2),
    with_options("classic", jokers=0),
    with_options("classic", hand_size=3),
    with_options("classic", max_wild=70),
]
ANY_RULES = st.sampled_from(RULES)

WILD_COPIES = [c for c in ALL_CARDS if c.is_wild and c.rank == "2"] * 2 + [Card("JK")] * 4
BLACK_COPIES = [c for c in ALL_CARDS if c.is_black_three] * 2
RED_THREES = [c for c in ALL_CARDS if c.is_red_three]
SCORES = [0, -50, 1500, 3000, 5000, 7000]


def _rank_copies(rank):
    return [c for c in ALL_CARDS if c.rank == rank] * 2


@st.composite
def possible(draw, rules=ANY_RULES):
    """``(rules, hand, melds, score)``: a hand near going out and its team's melds, never more copies of a card
    than two packs and four jokers hold (so impossible only under rules with fewer)."""
    rules = draw(rules)
    table_ranks = draw(st.lists(st.sampled_from(NATURAL_RANKS), max_size=4, unique=True))
    hand_ranks = draw(st.lists(st.sampled_from(NATURAL_RANKS), max_size=4, unique=True))
    wilds = draw(st.permutations(WILD_COPIES))
    melds, hand = [], []
    for rank in NATURAL_RANKS:
        if rank not in table_ranks and rank not in hand_ranks:
            continue
        copies = draw(st.permutations(_rank_copies(rank)))
        if rank in table_ranks:  # 1 natural card (not a meld: ignored) to 7, 0 to 3 wild cards
            n, w = draw(st.integers(1, 7)), draw(st.integers(0, min(3, len(wilds))))
            group, copies, wilds = copies[:n] + wilds[:w], copies[n:], wilds[w:]
            melds.append(tuple(draw(st.permutations(group))))
        if rank in hand_ranks:
            hand += copies[:draw(st.integers(1, min(len(copies), 4 if rank in table_ranks else 7)))]
    hand += wilds[:draw(st.integers(0, 4))]
    hand += draw(st.permutations(BLACK_COPIES))[:draw(st.sampled_from([0, 0, 0, 1, 2, 3, 4]))]
    extra = draw(st.sampled_from([None, None, *ALL_CARDS]))
    if extra is not None and not extra.is_red_three and hand.count(extra) + sum(m.count(extra) for m in melds) < 2:
        hand.append(extra)
    hand = tuple(draw(st.permutations(hand)))
    melds = draw(st.permutations(melds))
    return rules, hand, melds, draw(st.sampled_from(SCORES))


def _outcome(check, args, kwargs):
    """What a call gives: ``('verdict', fields...)`` or ``('raises', type, message)``."""
    try:
        v = check(*args, **kwargs)
        return ("verdict", type(v), v.ok, v.plan, v.discard, tuple(v.reasons), v.sentence, repr(v))
    except Exception as error:  # noqa: BLE001  (the point is to compare exceptions, also those of lazy fields)
        return ("raises", type(error), str(error))


def _same(fast, args, kwargs=None):
    kwargs = kwargs or {}
    got, want = _outcome(fast, args, kwargs), _outcome(PURE, args, kwargs)
    assert got == want, (args, kwargs)
    return got


def _call_forms(rules, hand, melds, score):
    """The ways the game, the harness, puzzles and learners call the check, for one situation."""
    forms = [((hand, melds, score, rules), {}),
             ((list(hand), [list(m) for m in melds], score, rules), {}),
             ((hand, tuple(melds), score, rules.name if rules.name in PRESETS else rules), {}),
             ((hand, melds), {"score": score, "rules": rules}),
             ((), {"hand": hand, "melds": melds, "score": score, "rules": rules}),
             ((hand, melds, score), {}),
             ((hand, melds), {}),
             ((hand,), {"rules": rules}),
             ((format_cards(hand, symbols=False), [format_cards(m, symbols=False) for m in melds], score, rules), {})]
    try:
        forms.append(((Situation(hand=hand, melds=melds, score=score, rules=rules),), {}))
    except Exception:  # noqa: BLE001  (an impossible situation: the other forms compare the error)
        pass
    return forms


# --- the comparisons -------------------------------------------------------------------------------------------------
@given(possible())
@example((PRESETS["classic"], tuple(Card(c) for c in "KH KS 2C 9D".split()),
          [tuple(Card(c) for c in "7H 7S 7D 7C 7H 7S 7D".split())], 0))
@example((PRESETS["classic"], tuple(Card(c) for c in "3S 3C 3S 9D".split()),
          [tuple(Card(c) for c in "7H 7S 7D 7C 7H 7S 7D".split())], 0))
@example((PRESETS["classic-2p"], tuple(Card(c) for c in "KH KS KD KC KH KS KD".split()),
          [tuple(Card(c) for c in "7H 7S 7D 7C 7H 7S 7D".split())], 0))
@example((PRESETS["classic"], (), [tuple(Card(c) for c in "7H 7S 7D 7C 7H 7S 7D".split())], 0))
def test_compiled_answers_as_pure_on_possible_and_impossible_situations(fast, case):
    rules, hand, melds, score = case
    for args, kwargs in _call_forms(rules, hand, melds, score):
        _same(fast, args, kwargs)


_SEVENS = tuple(Card(c) for c in "7H 7S 7D 7C 7H 7S 7D".split())
_NOT_INTERNED = Card._make("9", "D")  # a card made outside the intern table (equal to none of the real ones)
BAD_SCORES = [MAX_SCORE, -MAX_SCORE, MAX_SCORE + 1, -MAX_SCORE - 1, 10 ** 40, True, False, 2.5, "0", None]


@st.composite
def bad_call(draw):
    """A possible situation spoiled in one way (or left alone), in one call form."""
    rules, hand, melds, score = draw(possible())
    hand, melds = list(hand), list(melds)
    how = draw(st.sampled_from(["score", "red-three", "string-card", "int-card", "foreign-card", "copies",
                                "three-in-meld", "big-meld", "empty-meld", "string-meld", "melds-none",
                                "melds-string", "rules", "extra-keyword", "unknown-keyword", "twice",
                                "too-many-args", "big-hand", "none"]))
    args, kwargs = None, {}
    if how == "score":
        score = draw(st.sampled_from(BAD_SCORES))
    elif how == "red-three":
        hand.insert(draw(st.integers(0, len(hand))), draw(st.sampled_from(RED_THREES)))
    elif how == "string-card":
        hand.insert(draw(st.integers(0, len(hand))), "7H")
    elif how == "int-card":
        hand.append(7)
    elif how == "foreign-card":
        hand.append(_NOT_INTERNED)
    elif how == "copies":
        hand += [draw(st.sampled_from(ALL_CARDS))] * draw(st.integers(2, 7))
    elif how == "three-in-meld":
        melds.append(tuple(draw(st.permutations([Card("3S"), Card("3C"), Card("3S"),
                                                 draw(st.sampled_from([Card("3H"), Card("2C"), Card("3C")]))]))))
    elif how == "big-meld":
        melds.append(tuple(draw(st.lists(st.sampled_from(_rank_copies("Q") + WILD_COPIES[:2]), min_size=14,
                                         max_size=17))))
    elif how == "empty-meld":
        melds.insert(draw(st.integers(0, len(melds))), draw(st.sampled_from([(), []])))
    elif how == "string-meld":
        melds.append("KH KS KD")
    elif how == "melds-none":
        melds = None
    elif how == "melds-string":
        melds = "KH KS KD"
    elif how == "rules":
        rules = draw(st.sampled_from(["classic", "danish", "samba", "hoyle", "checkers", None, 5]))
    elif how == "extra-keyword":
        kwargs = {"pile": draw(st.sampled_from([(Card("7H"),), (Card("KH"),) * 3, "5D 9S"]))}
    elif how == "unknown-keyword":
        kwargs = {"hands": 3} if draw(st.booleans()) else {"colour": "red"}
    elif how == "twice":
        args, kwargs = (tuple(hand), melds), {"hand": tuple(hand)}
    elif how == "too-many-args":
        args = (tuple(hand), melds, score, rules, None)
    elif how == "big-hand":
        hand = (list(_SEVENS) + [Card("8H"), Card("8S"), Card("9H"), Card("9S"), Card("JK")]) * draw(st.integers(2, 4))
        melds = []
    if args is None:
        args = (tuple(hand) if draw(st.booleans()) else hand, melds, score, rules)
        cut = draw(st.integers(1, 4))
        if cut < 4 and not kwargs:
            kwargs = dict(zip(("hand", "melds", "score", "rules")[cut:], args[cut:]))
            args = args[:cut]
    return args, kwargs


def _cards(text):
    return tuple(Card(c) for c in text.split())


@given(bad_call())
# a black-three meld on the table (the compiled path leaves threes in melds to Python, which lays a wild card on it)
@example((((_cards("2D 9D"), [_cards("7H 7S 7D 7C 2C 2S 2H"), _cards("3S 3C 3S 3C")], 0, PRESETS["classic"])), {}))
def test_compiled_answers_or_raises_as_pure_on_bad_input(fast, call):
    args, kwargs = call
    _same(fast, args, kwargs)


@given(possible(st.sampled_from(FAST_RULES)))
def test_the_common_call_is_decided_in_c(case):
    """On the harness's and the game's call (tuples of cards, an int score, rules without sequences, a possible
    situation) the compiled module answers without asking the pure-Python check; and answers as it."""
    rules, hand, melds, score = case
    with deciding_alone("check_go_out") as entry:
        for args in ((hand, melds, score, rules), (list(hand), [list(m) for m in melds], score, rules)):
            _same(entry, args)
        _same(entry, (Situation(hand=hand, melds=melds, score=score, rules=rules),))


# --- the verdict the compiled path makes ---------------------------------------------------------------------------
def test_the_public_function_is_the_compiled_entry_when_built(fast):
    import inspect

    import canasta_tutor

    assert canasta_tutor.check_go_out is going_out.check_go_out
    assert twins("check_go_out") == (fast, PURE) and speedups.pure_twin(fast) is PURE
    assert fast is not PURE and fast.__wrapped__ is PURE
    assert fast.__doc__ == PURE.__doc__ and fast.__name__ == "check_go_out"
    assert inspect.signature(fast) == inspect.signature(PURE)
    assert going_out.check_go_out is (PURE if speedups.pure() else fast)


def test_the_plan_is_found_when_first_read_and_behaves_as_the_plan(fast):
    hand = tuple(Card(c) for c in "KH KS 2C 9D".split())
    v = fast(hand, [_SEVENS], 0, PRESETS["classic"])
    w = PURE(hand, [_SEVENS], 0, PRESETS["classic"])
    lazy = tuple.__getitem__(v, 2)
    assert isinstance(lazy, going_out.LazyPlan) and not hasattr(lazy, "_value")  # nothing searched yet
    assert v.plan == w.plan and isinstance(v.plan, going_out.GoOutPlan) and lazy._value is v.plan
    ok, reasons, plan = v
    assert (ok, tuple(reasons), plan) == (w.ok, tuple(w.reasons), w.plan) and v[2] == w.plan and v[-1] is v.plan
    assert v == w and hash(v) == hash(w) and repr(v) == repr(w) and v._asdict() == w._asdict()
    assert pickle.loads(pickle.dumps(v)) == w and type(pickle.loads(pickle.dumps(v)).plan) is going_out.GoOutPlan
    assert lazy.discard == Card("9D") and lazy.describe([_SEVENS]) == w.plan.describe([_SEVENS])
    assert v._replace(ok=False).plan == w.plan


def test_a_list_changed_after_the_call_does_not_change_the_lazy_answer(fast):
    hand = [Card(c) for c in "KH KS 2C 9D".split()]
    melds = [list(_SEVENS)]
    v = fast(hand, melds, 0, PRESETS["classic"])
    want = PURE(list(hand), [list(m) for m in melds], 0, PRESETS["classic"])
    hand.clear()
    melds[0].clear()
    melds.append([Card("5H")])
    assert (v.plan, tuple(v.reasons)) == (want.plan, tuple(want.reasons))
