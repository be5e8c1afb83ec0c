"""Property-based tests: invariants that must hold for every situation.

A property checks something only on the examples that reach its assertions, so none returns early: the
strategies build possible situations (the engine refusing one is a failure, not a case to skip), and a property
about some verdicts only ``assume()``s them, with a strategy that makes them often. Hypothesis counts only the
examples that pass ``assume()`` towards ``max_examples``, and fails a property whose inputs are (nearly) all
refused: ``FailedHealthCheck`` (filter_too_much) when generating, ``Unsatisfiable`` when none passes."""

from collections import Counter

from hypothesis import assume, example, given
from hypothesis import strategies as st

from canasta_tutor.engine.cards import ALL_CARDS, Card, format_cards, parse_cards
from canasta_tutor.engine.errors import CanastaError, PuzzleError, SituationError
from canasta_tutor.engine.melds import check_meld
from canasta_tutor.engine.pile import check_take_pile
from canasta_tutor.engine.rules import PRESETS, get_rules
from canasta_tutor.engine.scoring import score_hand
from canasta_tutor.puzzles.format import parse_puzzle_set

cards = st.sampled_from(ALL_CARDS)
natural_ranks = st.sampled_from(["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])
suits = st.sampled_from("SHDC")
presets = st.sampled_from(list(PRESETS))


@st.composite
def legal_multiset(draw, rules, size):
    """Cards that could all come from the decks of ``rules``."""
    pool = [c for c in ALL_CARDS for _ in range(rules.jokers if c.rank == "JK" else rules.decks)]
    return draw(st.lists(st.sampled_from(range(len(pool))), min_size=size, max_size=size, unique=True)
                .map(lambda idx: [pool[i] for i in idx]))


@st.composite
def group_meld(draw, rules, used: Counter):
    """A legal group for ``rules`` built from cards not yet used."""
    rank = draw(natural_ranks)
    n_nat = draw(st.integers(2, 8))
    naturals = []
    for suit in draw(st.lists(suits, min_size=n_nat, max_size=n_nat)):
        card = Card(rank + suit)
        if used[card] < rules.decks:
            used[card] += 1
            naturals.append(card)
    n_wild = draw(st.integers(0, rules.wild_capacity(len(naturals))))
    wild = []
    for code in draw(st.lists(st.sampled_from(["2S", "2H", "2D", "2C", "JK"]), min_size=n_wild, max_size=n_wild)):
        card = Card(code)
        limit = rules.jokers if code == "JK" else rules.decks
        if used[card] < limit:
            used[card] += 1
            wild.append(card)
    return tuple(naturals + wild)


@given(st.lists(cards, max_size=20), st.booleans(), st.sampled_from([" ", ", ", ",", "  "]))
def test_notation_round_trips(cs, symbols, sep):
    text = format_cards(cs, symbols=symbols, sep=sep)
    assert parse_cards(text) == tuple(cs)
    assert parse_cards([c.code.lower() for c in cs]) == tuple(cs)


def _expected_score(melds, red, hands, went_out, rules) -> int:
    """The hand's score worked out here from the rules' numbers, independently of scoring.py."""
    total = sum(c.points for m in melds for c in m) - sum(c.points for h in hands for c in h)
    canastas = [m for m in melds if len(m) >= 7]
    for m in canastas:
        total += rules.mixed_canasta_bonus if any(c.is_wild for c in m) else rules.natural_canasta_bonus
    if went_out == "concealed":
        total += len(canastas) * rules.concealed_canasta_bonus + rules.concealed_going_out_bonus
    elif went_out:
        total += rules.going_out_bonus
    if red:
        every = len(red) == rules.red_threes_in_game
        if melds:
            total += rules.all_red_threes_bonus if every else len(red) * rules.red_three_bonus
        else:
            total -= rules.all_red_threes_penalty if every else len(red) * rules.red_three_penalty
    return total


@st.composite
def end_of_hand(draw):
    """A team's end of hand as a game can leave it: legal groups (one per rank), up to all the red threes, cards
    left in one or two hands from what the decks still hold, and going out (or concealed) only with the canastas
    the rules ask for."""
    rules = get_rules(draw(presets))
    used = Counter()
    melds, ranks = [], set()
    for rank in draw(st.lists(natural_ranks, max_size=2, unique=True)):  # natural canastas, often enough to go out
        copies = [Card(rank + suit) for suit in "SHDC" for _ in range(rules.decks)]
        if len(copies) >= 7:
            melds.append(tuple(copies[:draw(st.integers(7, min(8, len(copies))))]))
            used.update(melds[-1])
            ranks.add(rank)
    for _ in range(draw(st.integers(0, 4))):
        meld = draw(group_meld(rules, used))
        if check_meld(meld, rules).ok and meld[0].rank not in ranks:
            melds.append(meld)
            ranks.add(meld[0].rank)
    n_red = draw(st.integers(0, rules.red_threes_in_game))
    red = ([Card("3H"), Card("3D")] * rules.decks)[:n_red]
    pool = _remaining_pool(rules, used)
    left = [pool[i] for i in draw(st.lists(st.sampled_from(range(len(pool))), max_size=12, unique=True))]
    cut = draw(st.integers(0, len(left)))
    hands = draw(st.sampled_from([[], [left], [left[:cut], left[cut:]]]))
    canastas = sum(len(m) >= 7 for m in melds)
    went_out = draw(st.sampled_from([True, "concealed", False] if canastas >= rules.canastas_to_go_out else [False]))
    return rules, melds, red, hands, went_out


@given(end_of_hand())
def test_score_equals_sum_of_breakdown(hand):
    rules, melds, red, hands, went_out = hand
    sheet = score_hand(melds, red, hands, went_out, rules)  # a possible hand: the engine must score it
    assert sheet.total == _expected_score(melds, red, hands, went_out, rules)
    frame = sheet.to_frame()
    assert frame["points"].iloc[-1] == sheet.total == frame["points"].iloc[:-1].sum()
    melded = sum(c.points for m in melds for c in m)
    assert dict((i.label, i.points) for i in sheet.items).get("Melded cards", 0) == melded
    left = sum(c.points for h in hands for c in h)
    assert dict((i.label, i.points) for i in sheet.items).get("Cards left in hand", 0) == -left


@given(presets, st.lists(cards, min_size=1, max_size=12), st.lists(cards, min_size=1, max_size=6),
       st.lists(st.lists(cards, min_size=3, max_size=8), max_size=3))
def test_nothing_accepted_uses_too_many_copies(name, hand, pile, melds):
    rules = get_rules(name)
    text = (f"rules: {name}\npuzzles:\n  - id: p\n    kind: take-pile\n    hand: {format_cards(hand, symbols=False)}\n"
            f"    pile: {format_cards(pile, symbols=False)}\n"
            f"    melds: [{', '.join(format_cards(m, symbols=False) for m in melds)}]\n")
    seen = Counter(hand) + Counter(pile) + Counter(c for m in melds for c in m)
    legal = all(n <= (rules.jokers if c.rank == "JK" else rules.decks) for c, n in seen.items())
    pset = parse_puzzle_set(text, "p.yaml")
    assert (not pset.errors) == legal, pset.errors
    # the engine's own checks agree with the loader
    for meld in melds:
        if check_meld(meld, rules, going_out=True).ok:
            assert all(n <= (rules.jokers if c.rank == "JK" else rules.decks) for c, n in Counter(meld).items())
    try:
        check_take_pile(hand, melds, 0, pile, rules)
        engine_accepts = True
    except SituationError:
        engine_accepts = False
    if not legal:
        assert not engine_accepts


def _remaining_pool(rules, used: Counter) -> list[Card]:
    left = Counter({c: (rules.jokers if c.rank == "JK" else rules.decks) for c in ALL_CARDS}) - used
    return [c for c in sorted(left, key=lambda c: c.code) for _ in range(left[c]) if not c.is_red_three]


@st.composite
def take_situation(draw):
    """A possible take-pile situation; the team often has melds, and the top card often matches something."""
    rules = get_rules(draw(presets))
    used = Counter()
    melds, ranks = [], set()
    for _ in range(draw(st.integers(0, 3))):
        meld = draw(group_meld(rules, used))
        if check_meld(meld, rules).ok and meld[0].rank not in ranks:
            melds.append(meld)
            ranks.add(meld[0].rank)
    pool = _remaining_pool(rules, used)
    picked = draw(st.lists(st.sampled_from(range(len(pool))), min_size=3, max_size=20, unique=True))
    cards_ = [pool[i] for i in picked]
    n_hand = draw(st.integers(1, len(cards_) - 1))
    hand, pile = cards_[:n_hand], cards_[n_hand:]
    # mostly put on top a natural card of a rank the hand or the team's melds hold, and mostly give the hand a
    # natural pair of it (the property is about the yes)
    wanted = sorted({c.rank for c in hand if c.is_natural} | ranks)
    if wanted and draw(st.integers(0, 3)) < 3:  # (Hypothesis draws small numbers more often)
        rank = draw(st.sampled_from(wanted))
        for place in (pile, hand, hand) if draw(st.integers(0, 2)) < 2 else (pile,):
            taken = Counter(hand) + Counter(pile) + used
            for suit in "HSDC":
                card = Card(rank + suit)
                if taken[card] < rules.decks:
                    place.append(card)
                    break
    # often a freezing card under the top card
    if draw(st.booleans()):
        taken = Counter(hand) + Counter(pile) + used
        for code in draw(st.permutations(["2C", "2D", "2H", "2S", "JK", "3H", "3S"])):
            card = Card(code)
            if taken[card] < (rules.jokers if code == "JK" else rules.decks):
                pile.insert(0, card)
                break
    score = draw(st.sampled_from([-100, 0, 1495, 1500, 3000, 7000]))
    return rules, tuple(hand), tuple(pile), melds, score


@example((get_rules("classic"), parse_cards("7H 7S 9D"), parse_cards("5D 2C 7C"), [parse_cards("KH KS KD")], 0))
@example((get_rules("classic"), parse_cards("4C 9D"), parse_cards("5D 2C 7C"), [parse_cards("7H 7S 7D")], 0))
@given(take_situation())
def test_take_yes_names_hand_cards_forming_a_legal_meld_with_the_top_card(situation):
    rules, hand, pile, melds, score = situation
    v = check_take_pile(hand, melds, score, pile, rules)
    assert v.reasons, "every verdict gives a reason"
    assume(v.ok)  # the property is about the yes (the strategy makes about half of them yes)
    top = pile[-1]
    assert not (Counter(v.cards) - Counter(hand)), "the cards named come from the hand"
    assert top in v.meld and all(c in v.meld for c in v.cards)
    assert check_meld(v.meld, rules).ok, v
    if v.method == "lay-off":
        assert v.cards == () and any(set(m) <= set(v.meld) for m in melds)
    if v.method == "pair":
        assert len(v.cards) == 2 and all(c.rank == top.rank and c.is_natural for c in v.cards)
    frozen = (not melds or rules.pile_always_frozen or any(c.is_wild for c in pile)
              or (rules.red_three_freezes_pile and any(c.is_red_three for c in pile))
              or (rules.black_three_freezes_pile and any(c.is_black_three for c in pile)))
    if frozen:
        assert v.method == "pair", "a frozen pile is taken only with a natural pair"


@given(st.text(max_size=30))
def test_parsing_garbage_raises_only_our_error(text):
    try:
        parse_cards(text)
    except CanastaError:
        pass


@given(st.text(max_size=200))
def test_loading_garbage_raises_only_puzzle_errors(text):
    try:
        parse_puzzle_set(text, "g.yaml")
    except PuzzleError:
        pass


@st.composite
def meld_candidate(draw):
    """Cards that may or may not be a meld: groups, near-groups, runs of one suit, threes, wild cards."""
    rules = get_rules(draw(presets))
    shape = draw(st.sampled_from(["group", "run", "any"]))
    if shape == "group":
        used = Counter()
        cards_ = list(draw(group_meld(rules, used)))
        cards_ += draw(st.lists(st.sampled_from([Card("2C"), Card("2D"), Card("JK")]), max_size=3))
        cards_ += draw(st.lists(cards, max_size=1))
    elif shape == "run":
        suit = draw(suits)
        start = draw(st.integers(1, 12))
        length = draw(st.integers(1, 9))
        names = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
        cards_ = [Card(names[(start - 1 + k) % 14] + suit) for k in range(length)]
        cards_ += draw(st.lists(st.sampled_from([Card("2C"), Card("JK")]), max_size=1))
    else:
        cards_ = draw(st.lists(cards, max_size=9))
    cards_ = draw(st.permutations(cards_))
    return rules, tuple(cards_), draw(st.booleans())


@example((get_rules("hoyle"), parse_cards("5H 5S 2C 2D 2S"), False))
@example((get_rules("classic"), parse_cards("KH KH KH KS"), False))
@example((get_rules("samba"), parse_cards("4H 5H 6H 7H 8H 9H 10H"), False))
@example((get_rules("classic"), parse_cards("QH QS QD QC QH QS 2D"), False))
@given(meld_candidate())
def test_meld_facts_agrees_with_check_meld(candidate):
    """meld_facts is check_meld without sentences, for speed: they must always agree."""
    from canasta_tutor.engine.melds import meld_facts

    rules, cards_, going_out = candidate
    v = check_meld(cards_, rules, going_out=going_out)
    facts = meld_facts(cards_, rules, going_out)
    if v.ok:
        assert facts == (v.kind, v.rank, v.canasta, v.points), (cards_, v)
    else:
        assert facts is None, (cards_, v.sentence, facts)
