"""The engine's fast paths (answers decided without sentences, reasons written when read) give exactly the
answers and sentences of the explained paths, on random situations."""

from dataclasses import replace

from hypothesis import example, given
from hypothesis import strategies as st

from canasta_tutor.engine.cards import ALL_CARDS, Card, parse_cards
from canasta_tutor.engine.melds import _explain_meld, check_meld
from canasta_tutor.engine.rules import PRESETS, get_rules
from canasta_tutor.engine.verdict import LazyReasons, Reason

presets = st.sampled_from(sorted(PRESETS))
# melds are mostly one rank with wild cards: weight the draw towards that, with any card now and then
_WILD = [Card("2C"), Card("2H"), Card("JK")]
ranks = st.sampled_from(["4", "7", "9", "K", "A", "3"])


@st.composite
def meld_like(draw):
    rank = draw(ranks)
    same = [c for c in ALL_CARDS if c.rank == rank]
    pool = st.one_of(st.sampled_from(same), st.sampled_from(_WILD), st.sampled_from(ALL_CARDS))
    return tuple(draw(st.lists(pool, max_size=9)))


def _fields(v):
    return (type(v), v.ok, tuple(v.reasons), v.kind, v.rank, v.canasta, v.points, v.cards)


@given(meld_like(), presets, st.booleans())
def test_check_meld_fast_path_gives_the_explained_answer(cards, preset, going_out):
    rules = get_rules(preset)
    fast = check_meld(cards, rules, going_out=going_out)
    slow = _explain_meld(cards, rules, going_out)
    assert _fields(fast) == _fields(slow)
    assert fast == slow and fast.sentence == slow.sentence


@given(meld_like(), presets, st.booleans())
def test_meld_facts_agree_with_the_explained_check(cards, preset, going_out):
    from canasta_tutor.engine.melds import meld_facts

    rules = get_rules(preset)
    slow = _explain_meld(cards, rules, going_out)
    assert meld_facts(cards, rules, going_out) == ((slow.kind, slow.rank, slow.canasta, slow.points) if slow.ok
                                                   else None)


def test_lazy_reasons_are_written_once_when_first_read():
    calls = []

    def explain(x):
        calls.append(x)
        return [Reason("a", f"A {x}."), Reason("b", "B.")]

    lazy = LazyReasons(explain, 7)
    assert calls == []
    assert len(lazy) == 2 and lazy[0].text == "A 7." and calls == [7]
    assert lazy == (Reason("a", "A 7."), Reason("b", "B.")) and (Reason("z", "Z."),) + lazy == (
        Reason("z", "Z."), Reason("a", "A 7."), Reason("b", "B."))
    assert lazy[:1] == (Reason("a", "A 7."),) and lazy != () and bool(lazy) and calls == [7]
    assert not LazyReasons(tuple)


# --- going out -------------------------------------------------------------------------------------------------------
_NO_RED = [c for c in ALL_CARDS if not c.is_red_three]
_WILDS = [c for c in ALL_CARDS if c.is_wild]


@st.composite
def table_and_hand(draw):
    """A team's legal melds (one per rank) and a hand, as dealt in a game: no card beyond what the decks hold."""
    rules = get_rules(draw(presets))
    melds, seen = [], set()
    for rank in draw(st.lists(st.sampled_from(["4", "7", "9", "K", "A"]), max_size=4, unique=True)):
        same = [c for c in ALL_CARDS if c.rank == rank]
        n = draw(st.integers(2 if melds else 6, 8))
        cards = tuple(draw(st.lists(st.sampled_from(same), min_size=n, max_size=n))
                      + draw(st.lists(st.sampled_from(_WILDS), max_size=3)))
        if check_meld(cards, rules).ok and rank not in seen:
            melds.append(cards)
            seen.add(rank)
    # a hand built to come close to going out: lay-offs, new groups, wild cards, black threes, a stray card or two
    hand = []
    for rank in seen:
        hand += draw(st.lists(st.sampled_from([c for c in ALL_CARDS if c.rank == rank]), max_size=2))
    for rank in draw(st.lists(st.sampled_from(["5", "8", "Q"]), max_size=2, unique=True)):
        hand += draw(st.lists(st.sampled_from([c for c in ALL_CARDS if c.rank == rank]), min_size=2, max_size=4))
    hand += draw(st.lists(st.sampled_from(_WILDS), max_size=3))
    hand += [Card("3S"), Card("3C"), Card("3S"), Card("3C")][:draw(st.integers(0, 4))]
    hand += draw(st.lists(st.sampled_from(_NO_RED), max_size=1))
    return rules, melds, tuple(draw(st.permutations(hand)))


_CANASTA = "7H 7S 7D 7C 7H 7S 7D"


@given(table_and_hand())
@example((get_rules("classic"), [parse_cards(_CANASTA)], parse_cards("3S 3S 3C 3C")))
@example((get_rules("classic"), [parse_cards(_CANASTA)], parse_cards("3S 3C 3C 2H")))
@example((get_rules("hoyle"), [parse_cards(_CANASTA)], parse_cards("3S 3C 3C 2H")))
@example((get_rules("classic"), [parse_cards(_CANASTA)], parse_cards("KH 9S 9D 5C")))
@example((get_rules("classic"), [parse_cards(_CANASTA)], parse_cards("KH KS 2C 9D")))
@example((get_rules("classic"), [parse_cards(_CANASTA)], parse_cards("KH KS KD 9D 9S")))
@example((get_rules("classic"), [parse_cards(_CANASTA), parse_cards("9H 9C 2S")], parse_cards("KH KS 9D 5C")))
@example((get_rules("classic"), [], parse_cards("KH KS KD KC KH KS JK 2C 4H")))
def test_check_go_out_fast_path_gives_the_explained_answer_and_plan(case):
    from hypothesis import assume

    from canasta_tutor.engine.errors import SituationError
    from canasta_tutor.engine.going_out import SEARCH_REASONS_MAX, _explain_go_out, check_go_out
    from canasta_tutor.engine.situation import Situation

    rules, melds, hand = case
    try:
        situation = Situation(hand=hand, melds=melds, rules=rules)
    except SituationError:
        assume(False)
    fast = check_go_out(situation)
    minimum = 0 if melds or rules.concealed_needs_no_minimum else rules.opening_minimum(0)
    slow = _explain_go_out(situation.hand, list(situation.melds), rules, rules.canastas_to_go_out, minimum)
    if not fast.ok and rules.sequences and len(hand) > SEARCH_REASONS_MAX and not minimum:
        # a no on a hand too big for the arrangement search under sequences is explained from the counting core's
        # facts (going_out._counted_no_reasons): the same answer, its own sentences
        assert (fast.ok, fast.plan, fast.reasons[0].code) == (slow.ok, slow.plan, "cannot-go-out")
        return
    assert (fast.ok, fast.plan, tuple(fast.reasons)) == (slow.ok, slow.plan, tuple(slow.reasons))
    assert fast == slow


# --- taking the pile -------------------------------------------------------------------------------------------------
@given(table_and_hand(), st.lists(st.sampled_from(ALL_CARDS), max_size=6), st.sampled_from([0, 1500, 3000]),
       st.booleans())
@example((get_rules("classic"), [parse_cards("KH KS KC")], parse_cards("7H 7S 4C")), parse_cards("5D 7C"), 0, False)
@example((get_rules("classic"), [], parse_cards("7H 7S 4C 9D")), parse_cards("5D 7C"), 0, False)
@example((get_rules("classic"), [], parse_cards("AH AS JK 2C 9D")), parse_cards("5D AC"), 0, False)
@example((get_rules("classic"), [parse_cards("KH KS KC")], parse_cards("7H 7S 4C")), parse_cards("7C"), 0, False)
@example((replace(get_rules("classic"), black_three_freezes_pile=True), [parse_cards("7H 7S 7C")],
          parse_cards("4C 9D 2C")), parse_cards("3S 5H 7D"), 0, False)
@example((get_rules("hoyle"), [parse_cards("7H 7S 7C")], parse_cards("4C 9D 2C")), parse_cards("3H 5H 7D"), 0, False)
@example((get_rules("classic"), [parse_cards("7H 7S 7C")], parse_cards("4C")), parse_cards("2C 7D"), 0, False)
@example((get_rules("classic"), [parse_cards("7H 7S 7C")], parse_cards("4C 9D")), parse_cards("5S 7D"), 0, True)
@example((get_rules("danish"), [parse_cards("7H 7S 7C")], parse_cards("4C 9D")), parse_cards("3H 7D"), 0, True)
def test_check_take_pile_fast_path_gives_the_explained_answer(case, pile, score, stock_empty):
    from hypothesis import assume

    from canasta_tutor.engine.errors import SituationError
    from canasta_tutor.engine.pile import _check_take_pile, check_take_pile
    from canasta_tutor.engine.situation import Situation

    rules, melds, hand = case
    try:
        situation = Situation(hand=hand, melds=melds, pile=tuple(pile), score=score, stock_empty=stock_empty,
                              rules=rules)
    except SituationError:
        assume(False)
    fast = check_take_pile(situation)
    slow = _check_take_pile(situation.hand, list(situation.melds), score, situation.pile, rules, stock_empty)
    assert tuple(fast) == tuple(slow) and type(fast) is type(slow)
    assert fast.sentence == slow.sentence


# --- scoring a hand --------------------------------------------------------------------------------------------------
_RED = [c for c in ALL_CARDS if c.is_red_three]


@given(table_and_hand(), st.lists(st.sampled_from(_RED), max_size=4), st.sampled_from([False, True, "concealed"]),
       st.lists(st.sampled_from(_NO_RED), max_size=5))
@example((get_rules("classic"), [parse_cards(_CANASTA)], ()), [Card("3H")] * 2 + [Card("3D")] * 2, True, [])
@example((get_rules("classic"), [], ()), [Card("3H")] * 2 + [Card("3D")] * 2, False, parse_cards("KH 5C"))
@example((get_rules("hoyle"), [parse_cards(_CANASTA)], ()), [Card("3H")], "concealed", [])
@example((get_rules("hoyle"), [parse_cards(_CANASTA), parse_cards("KH KS KD KC KH KS JK")], ()), [], "concealed", [])
def test_score_hand_total_is_the_sum_of_its_explained_lines(case, red, went_out, partner):
    from hypothesis import assume

    from canasta_tutor.engine.errors import SituationError
    from canasta_tutor.engine.scoring import score_hand

    rules, melds, hand = case
    hand = tuple(c for c in hand if not c.is_black_three) if went_out else hand
    try:
        sheet = score_hand(melds, tuple(red), [hand, tuple(partner)], went_out, rules)
    except SituationError:
        assume(False)
    total = sheet.total
    assert "items" not in vars(sheet)          # the lines are not written until read
    assert total == sum(i.points for i in sheet.items) == int(sheet)


@given(meld_like())
def test_meld_key_names_the_rank_of_a_group_and_the_suit_of_a_run(cards):
    from canasta_tutor.engine.melds import GROUP, SEQUENCE, meld_key

    naturals = [c for c in cards if not c.is_wild]
    expected = ((GROUP, naturals[0].rank) if len({c.rank for c in naturals}) == 1 else
                (SEQUENCE, naturals[0].suit) if naturals else (GROUP, ""))
    assert meld_key(cards) == expected


def test_unopened_take_with_one_pile_card_below_needs_a_card_to_keep():
    """An unopened team that reaches its minimum but would keep only one pile card: the fast path must not say yes
    (the explained path searches for a way to finish the turn, and here there is none)."""
    from canasta_tutor.engine.pile import _check_take_pile, check_take_pile

    v = check_take_pile("AH AS", [], 0, "9D AD")
    assert not v.ok and v.codes[0] == "cannot-finish"
    assert v == _check_take_pile(parse_cards("AH AS"), [], 0, parse_cards("9D AD"), get_rules("classic"), False)
    # with two pile cards below the top card, the turn can be finished: yes at once
    assert check_take_pile("AH AS", [], 0, "9D 5C AD").ok


@st.composite
def counted_placement(draw):
    """Numbers for the going-out search: a team's groups near a canasta, and hand cards per rank near the wild-card
    limits (cards may repeat beyond the decks: the two functions compared do not count copies)."""
    rules = get_rules(draw(st.sampled_from([p for p in sorted(PRESETS) if not get_rules(p).sequences])))
    melds = []
    for rank in draw(st.lists(st.sampled_from(["4", "7", "9", "K", "A"]), max_size=3, unique=True)):
        nat = draw(st.integers(2, 8))
        meld = (Card(rank + "H"),) * nat + (Card("2C"),) * draw(st.integers(0, 3))
        if check_meld(meld, rules, going_out=True).ok or len(meld) > rules.decks:
            if meld_facts_ok(meld, rules):
                melds.append(meld)
    hand = []
    for rank in draw(st.lists(st.sampled_from(["4", "7", "9", "K", "A", "5", "Q"]), max_size=4, unique=True)):
        hand += [Card(rank + "S")] * draw(st.integers(0, 6))
    hand += [Card("JK")] * draw(st.integers(0, 6))
    hand += [Card("3S")] * draw(st.integers(0, 4))
    return rules, melds, hand


def meld_facts_ok(meld, rules):
    from canasta_tutor.engine.melds import meld_facts

    return meld_facts(meld, rules, True, copies_checked=True) is not None


@given(counted_placement())
@example((get_rules("classic"), [(Card("KH"),) * 4 + (Card("2C"),)], [Card("KS"), Card("JK")]))
# a canasta at the limit
@example((get_rules("classic"), [(Card("KH"),) * 4 + (Card("2C"),)], [Card("JK"), Card("JK")]))
# black threes on the table: never a canasta
@example((get_rules("classic"), [(Card("3S"), Card("3S"), Card("3C"), Card("3C"))], [Card("JK")] * 3))
@example((get_rules("classic"), [], [Card("9S")] * 4 + [Card("JK")] * 3))
@example((get_rules("danish"), [], [Card("9S")] * 2 + [Card("JK")] * 2))
def test_counted_canastas_equal_the_placement_search(case):
    """Going out is decided by the counting core (``counts.place_every_card``): the most canastas it counts for a
    hand placed without a discard must be exactly what the placement search (``_place_groups`` with ``_wild_dp``)
    finds, or ``None`` when the search places no card arrangement."""
    from canasta_tutor.engine.go_out_search import _place_groups, _table_info, counted_go_out

    rules, melds, hand = case
    groups, _sequences, base = _table_info(melds, rules)
    naturals = [c for c in hand if c.is_natural]
    black = [c for c in hand if c.is_black_three]
    wilds = [c for c in hand if c.is_wild]
    _problems, parts = _place_groups(naturals, black, wilds, melds, groups, base, rules)
    plan = counted_go_out(hand, melds, rules, 0, allow_discard=False)
    assert (plan.canastas if plan is not None else None) == (parts[2] if parts is not None else None)


def test_house_rules_with_few_jokers_count_them_even_in_a_small_situation():
    """Found in review of the fast copies check: a situation smaller than the number of packs must still refuse more
    jokers than the house rule has, and a meld holding a joker under a no-joker house rule is impossible."""
    import pytest

    from canasta_tutor import Situation, check_meld, score_hand
    from canasta_tutor.engine.errors import SituationError
    from canasta_tutor.engine.melds import count_canastas
    from canasta_tutor.engine.rules import with_options

    with pytest.raises(SituationError, match="3 copies of Joker"):
        Situation(hand="JK JK JK", rules=with_options("classic-6p", jokers=2))
    with pytest.raises(SituationError, match="1 copy of Joker"):
        score_hand([], "", ["JK"], False, with_options("classic", jokers=0))
    no_jokers = with_options("classic", jokers=0)
    v = check_meld("JK 8C 8H 2S 8D 8S 2H", no_jokers)
    assert not v.ok and v.codes == ("impossible-copies",)
    assert count_canastas(["JK 8C 8H 2S 8D 8S 2H"], no_jokers) == 0


def test_bad_fields_are_reported_in_one_order_whatever_the_call_form():
    """The adapter reads the score first, then single groups of cards, then lists of groups (as Situation does)."""
    import pytest

    from canasta_tutor import check_go_out, check_take_pile
    from canasta_tutor.engine.errors import CanastaError

    with pytest.raises(CanastaError, match="score"):
        check_go_out("XX", [], "x")
    with pytest.raises(CanastaError, match="^YY is not a card"):
        check_take_pile("7H", ["XX"], 0, "YY")


def test_the_cheapest_wild_card_of_equals_is_the_first_in_sort_order():
    """Taking with one natural card and a wild card: between two twos the choice does not depend on a set's order."""
    from canasta_tutor import check_take_pile

    for hand in ("9H 2S 2C 5D 6C", "9H 2C 2S 5D 6C"):
        v = check_take_pile(hand, ["KH KS KD"], 0, "4C 9D")
        assert v.ok and v.method == "natural-and-wild" and v.cards == parse_cards("9H 2C")


def test_samba_takes_of_a_team_that_has_opened_are_decided_by_the_core_as_the_explained_path_answers():
    # issue 19 §0: under samba's sequences too the counting core (counts.flat_take_way) decides the take of a team
    # that has opened; on every draw of club and random samba hands its verdict and its sentences are the explained
    # path's (rule-decisions.md lines 116-121: a natural pair, or the top card onto one of the team's groups)
    import random

    from canasta_tutor.bots import get_bot
    from canasta_tutor.engine import pile as pile_module
    from canasta_tutor.engine.pile import _check_take_pile, check_take_pile
    from canasta_tutor.game import DRAW_PHASE, Game, apply, legal_actions, observation

    game, club = Game("samba"), get_bot("club")
    decided = compared = 0
    real = pile_module._decided_take
    seen = []
    pile_module._decided_take = lambda *a: seen.append(1) or real(*a)
    try:
        for seed in range(14):
            state = game.deal(seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                p = state.current_player
                melds = state.melds[state.team_of(p)]
                if state.phase == DRAW_PHASE and state.pile and melds:
                    args = (tuple(state.hands[p]), list(melds), state.score_of(p), tuple(state.pile), state.rules,
                            not state.stock)
                    seen.clear()
                    fast = check_take_pile(*args[:5], stock_empty=args[5])
                    slow = _check_take_pile(*args)
                    assert tuple(fast) == tuple(slow) and fast.sentence == slow.sentence, args
                    decided += bool(seen)
                    compared += 1
                acts = legal_actions(state)
                a = club.choose(observation(state), acts, rng)[0] if seed % 2 else acts[rng.randrange(len(acts))]
                apply(state, a)
    finally:
        pile_module._decided_take = real
    assert compared >= 300 and decided == compared
