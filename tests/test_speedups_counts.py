"""The counting core compiled (``_speedups/counts.pyx``: the text of ``engine/counts.py`` compiled by Cython) against
its pure-Python twin (``engine/counts.py`` itself), on hands a game reaches: the hands of random play in every preset,
and big hands (30 to 45 cards, as a player who took big piles holds: issue 19's 43-card danish and samba hands) of
samba and danish with their team's melds on the table. Both must give the same way out (or none) and the same most
meld points, with and without the pile's top card and cards to keep."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from compiled import twins

from canasta_tutor.engine.cards import ALL_CARDS, SEQUENCE_ORDER, Card
from canasta_tutor.engine.go_out_search import _table_info
from canasta_tutor.engine.rules import PRESETS, get_rules

PLACE, PLACE_PURE = twins("place_every_card")
MOST, MOST_PURE = twins("most_meld_points")
# goout.pyx and take.pyx: the arguments read into counts, the rule decided by the counting core's flat closed forms
# (counts.py's last section, compiled)
GO_OUT, GO_OUT_PURE = twins("check_go_out")
TAKE, TAKE_PURE = twins("check_take_pile")


def outcome(check, *args, **kwargs):
    """What a check answers (the verdict's fields, the plan and reasons left out: lazy, the explained path's), or
    the error it raises."""
    try:
        verdict = check(*args, **kwargs)
    except Exception as error:  # noqa: BLE001 -- the same error is part of the same answer
        return type(error), str(error)
    return verdict.ok, tuple(v for k, v in verdict._asdict().items() if k not in ("reasons", "plan"))


def same_checks(hand, melds, score, pile, rules, stock_empty=False) -> None:
    """Asserts that the compiled check_go_out and check_take_pile answer as their pure twins."""
    hand, melds, pile = tuple(hand), [tuple(m) for m in melds], tuple(pile)
    assert outcome(GO_OUT, hand, melds, score, rules) == outcome(GO_OUT_PURE, hand, melds, score, rules), \
        (rules.name, " ".join(c.code for c in hand), melds, score)
    assert outcome(TAKE, hand, melds, score, pile, rules, stock_empty=stock_empty) == \
        outcome(TAKE_PURE, hand, melds, score, pile, rules, stock_empty=stock_empty), \
        (rules.name, " ".join(c.code for c in hand), melds, score, pile, stock_empty)


def deck(rules) -> list[Card]:
    return [c for c in ALL_CARDS for _ in range(rules.jokers if c.rank == "JK" else rules.decks)
            if not c.is_red_three]


def table_groups(melds, rules):
    """The arguments place_every_card takes for a team's melds (as going_out's counted_go_out gives them)."""
    groups_at, sequences, base = _table_info(melds, rules)
    groups = {}
    for rank, idx in groups_at.items():
        if rank in SEQUENCE_ORDER:
            wild = tuple(c for c in melds[idx] if c.is_wild)
            groups[SEQUENCE_ORDER[rank]] = (idx, len(melds[idx]) - len(wild), wild, len(melds[idx]))
    return groups, sequences, base


def same_answers(hand, melds, rules, rng) -> bool:
    """Asserts that the compiled core and its twin agree on ``hand``; whether the player may go out."""
    groups, sequences, base = table_groups(melds, rules)
    need = rules.canastas_to_go_out
    for allow_discard in (True, False):
        compiled = PLACE(hand, groups, sequences, base, rules, need, allow_discard=allow_discard)
        pure = PLACE_PURE(hand, groups, sequences, base, rules, need, allow_discard=allow_discard)
        assert compiled == pure, (rules.name, " ".join(c.code for c in hand), melds)
    naturals = [c for c in hand if c.is_natural]
    top = rng.choice(naturals) if naturals else None
    for kwargs in ({}, {"top": top}, {"keep": rng.randint(1, 3)}, {"top": top, "keep": 2}):
        assert MOST(hand, rules, **kwargs) == MOST_PURE(hand, rules, **kwargs), (rules.name, hand, kwargs)
    return pure is not None


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_compiled_core_answers_as_its_twin_in_random_play(name):
    from canasta_tutor.game import Game, apply, legal_actions
    from canasta_tutor.game.legal import situation_of

    game = Game(name)
    rng = random.Random(name)
    asked = 0
    for seed in range(3):
        state = game.deal(seed, 1)
        moves = 0
        while not state.is_terminal() and moves < 400:
            if moves % 3 == 0:
                s = situation_of(state, state.current_player)
                if not any(c.is_red_three for c in s.hand):
                    same_answers(s.hand, list(s.melds), s.rules, rng)
                    same_checks(s.hand, s.melds, s.score, s.pile, s.rules, s.stock_empty)
                    asked += 1
            acts = legal_actions(state)
            apply(state, acts[rng.randrange(len(acts))])
            moves += 1
    assert asked >= 30, asked


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_compiled_core_answers_as_its_twin_on_big_hands(name):
    """30 to 45 cards of the deck, the team's canastas (and a group) on the table from the rest."""
    rules = get_rules(name)
    rng = random.Random(f"big {name}")
    ways = {True: 0, False: 0}
    for _ in range(25):
        cards = deck(rules)
        rng.shuffle(cards)
        melds = []
        rest = cards[45:]
        for rank in rng.sample(sorted({c.rank for c in rest if c.is_natural}), 3):
            of_rank = [c for c in rest if c.rank == rank]
            if len(of_rank) >= 3:
                melds.append(tuple(of_rank[:rng.choice((3, 7, 7))]))
        hand = cards[:rng.randint(30, 45)]
        if name == "samba" and rng.random() < 0.5:   # lots of one suit in a row: the runs' hard case
            suit = rng.choice("SHDC")
            hand = [c for c in hand if c.suit != suit] + [c for c in deck(rules) if c.suit == suit and c.is_natural
                                                           and SEQUENCE_ORDER[c.rank] >= rng.randint(4, 8)][:12]
        ways[same_answers(hand, melds, rules, rng)] += 1
        pile = rest[-rng.randint(1, 6):]
        for score in (0, 1500, 3000):
            same_checks(hand, melds, score, pile, rules)
            same_checks(hand, [], score, pile, rules)
    assert ways[True] + ways[False] == 25


@pytest.mark.parametrize("name", list(PRESETS))
def test_an_unopened_team_takes_the_pile_as_its_twin_says(name):
    """The opening minimum when taking the pile (take.pyx's hardest counting: groups, pairs with a wild card each,
    the wild cards the groups hold, cards kept out): hands of 4 to 20 cards holding the top card's rank at least
    twice and wild cards, against every minimum of the opening table, compiled and pure alike."""
    rules = get_rules(name)
    rng = random.Random(f"open {name}")
    yes = Counter()
    for _ in range(400):
        cards = deck(rules)
        rng.shuffle(cards)
        top = next(c for c in cards if c.is_natural)
        cards.remove(top)
        same = [c for c in cards if c.rank == top.rank][:rng.randint(2, 3)]
        wild = [c for c in cards if c.is_wild][:rng.randint(0, 4)]
        rest = [c for c in cards if c not in same and c not in wild]
        hand = same + wild + rest[:rng.randint(2, 17)]
        rng.shuffle(hand)
        pile = rest[len(rest) - rng.choice((0, 1, 1, 2, 5)):]
        for lowest, _minimum in rules.opening_table:
            score = 0 if lowest is None else lowest
            same_checks(hand, [], score, pile + [top], rules)
            yes[TAKE_PURE(tuple(hand), [], score, tuple(pile + [top]), rules).ok] += 1
    assert yes[True] >= 50 and yes[False] >= 50, yes
