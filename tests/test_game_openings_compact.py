"""When a hand has more openings than the game lists in full (``OPENING_LIMIT`` whole shapes, ``EXTRA_LIMIT``
others), it offers them in a compact form that leaves no legal opening out (issue 19 §1: "If the full list of
melds is too long for a bot, offer the list in a compact form ... but never leave a legal move out"; 002 line 36
"Je mag meerdere sets tegelijk leggen om het minimum te halen").

The compact form: every opening from which no meld can be left out (``minimal_combos``); the other melds of any
legal opening are then new melds the game offers once the team has opened, in the same turn. Checked against
``meld_oracle.openings``, the rules' own enumeration: every legal opening is an offered one plus melds offered
one after another, and every offered one is legal.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from meld_oracle import KEEP, WRITTEN, Hand, names, openings
from test_game_openings import position

from canasta_tutor.engine.cards import parse_cards
from canasta_tutor.game import MELD, apply, legal_actions
from canasta_tutor.game.openings import EXTRA_LIMIT

CASES = [   # (preset, hand, score): more legal openings than the full list holds
    ("classic", "KH KS KD QH QS QD JH JS JD 10H 10S 10D 9H 9S 9D 8H 8S 8D JK 2C 2H 4C", 1500),
    ("samba", "4H 5H 6H 7H 8H 9H 10H 4S 5S 6S 7S 8S KD KS KC QD QS JK 2C 9C", 1500),
]


def contained(part: frozenset, whole: frozenset) -> bool:
    mine, theirs = Counter(dict(part)), Counter(dict(whole))
    return not mine - theirs


@pytest.mark.parametrize("name, hand, score", CASES)
def test_a_long_list_of_openings_is_offered_compact_and_covers_every_legal_one(name, hand, score):
    cards = parse_cards(hand)
    written = WRITTEN[name]
    minimum = written.minimum(score)
    legal = {o.melds for o in openings(written, Hand.of(cards), minimum, keep=KEEP)}
    assert len(legal) > EXTRA_LIMIT   # more than the full list holds
    state = position(name, cards, score=score)
    offered = [a for a in legal_actions(state) if a.kind == MELD]
    offered_names = [names(a.melds) for a in offered]
    assert 0 < len(offered) < len(legal) / 5 and len(set(offered_names)) == len(offered)
    assert set(offered_names) <= legal
    # every legal opening holds an offered one
    for o in legal:
        assert any(contained(n, o) for n in offered_names), (name, sorted(dict(o)))
    # and is reached from it by new melds offered one after another, in the same turn (a sample)
    rng = random.Random(name)
    by_name = dict(zip(offered_names, offered))
    for o in rng.sample(sorted(legal, key=lambda x: sorted(dict(x).items())), 150):
        first = next(n for n in offered_names if contained(n, o))
        after = apply(state.clone(), by_name[first])
        todo = Counter(dict(o)) - Counter(dict(first))
        while todo:
            step = next((a for a in legal_actions(after) if a.kind == MELD and len(a.melds) == 1
                         and dict(names(a.melds)).keys() <= todo.keys()), None)
            assert step is not None, (name, sorted(dict(o)), "not reached from", sorted(dict(first)))
            todo -= Counter(dict(names(step.melds)))
            apply(after, step)
        assert names(after.melds[after.team_of(after.current_player)]) == o


def test_taking_the_pile_with_a_long_list_of_openings_the_top_cards_meld_is_in_each():
    """The same with the pile's top card: every offered take holds the top card's meld (which may not be left
    out, even where the others reach the minimum without it), and every legal opening with it holds an offered
    one."""
    name, hand, score = CASES[0]
    cards = parse_cards(hand)
    written = WRITTEN[name]
    top = parse_cards("KC")[0]
    legal = {o.melds for o in openings(written, Hand.of(cards), written.minimum(score), keep=KEEP, top=top)}
    assert len(legal) > EXTRA_LIMIT
    state = position(name, cards, score=score, pile=[top])
    offered = [names(a.melds) for a in legal_actions(state) if a.kind == "take_pile"]
    assert 0 < len(offered) < len(legal) / 5 and set(offered) <= legal
    assert all(any(rank == "K" for (kind, rank, *_rest), _n in n if kind == "G") for n in offered)
    for o in legal:
        assert any(contained(n, o) for n in offered), sorted(dict(o))
