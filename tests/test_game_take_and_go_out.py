"""A take of the pile that is legal only because the player then goes out in the same turn is offered (issue 19
§1), and the way out follows.

rule-decisions.md line 46: "Taking the pile must leave a turn that can be finished legally: the top card is melded
at once, and then the player can discard, or go out legally."
"""

from __future__ import annotations

import pytest
from meld_oracle import WRITTEN, names, openings
from test_game_openings import cards_left, random_cases
from test_rules_presets_19 import position

from canasta_tutor.engine.cards import parse_cards
from canasta_tutor.engine.rules import PRESETS
from canasta_tutor.game import GO_OUT, TAKE_PILE, Action, apply, legal_actions


def cards(text: str) -> tuple:
    return tuple(parse_cards(text))


def test_an_unopened_team_takes_the_pile_and_goes_out_at_once():
    """The top card 7D with 7H 7S and the whole hand melded with it: no card is left to discard, so the take is
    legal only by going out (a canasta of kings), and it is offered, apart from the takes that keep two cards."""
    state = position("classic", hands={0: "KH KS KD KC KH KS 2C 7H 7S", 2: "4C 4S"}, pile="7D")
    takes = [a for a in legal_actions(state) if a.kind == TAKE_PILE]
    everything = Action(TAKE_PILE, cards=cards("7H 7S"), melds=(cards("7D 7H 7S"), cards("KH KS KD KC KH KS 2C")))
    assert everything in takes
    # every take offered that leaves fewer than two cards goes out at once
    for a in takes:
        left = 9 - sum(len(m) for m in a.melds) + 1
        if left < 2:
            after = apply(state.clone(), a)
            assert [b.kind for b in legal_actions(after)] == [GO_OUT], a.to_text()
    apply(state, everything)
    assert state.hands[0] == [] and legal_actions(state) == [Action(GO_OUT)]
    apply(state, Action(GO_OUT))
    assert state.is_terminal() and state.went_out[0] == 0


def test_an_unopened_team_without_a_way_out_is_offered_no_take_that_leaves_one_card():
    """The same hand without the second KS: melding everything but one card leaves KH KS KD KC KH 2C, six kings
    and no canasta, so no take that keeps fewer than two cards is offered; those that keep two are."""
    state = position("classic", hands={0: "KH KS KD KC KH 2C 7H 7S 9C", 2: "4C 4S"}, pile="7D")
    takes = [a for a in legal_actions(state) if a.kind == TAKE_PILE]
    assert takes and all(9 - sum(len(m) for m in a.melds) + 1 >= 2 for a in takes)


def test_an_opened_team_takes_a_one_card_pile_with_its_last_pair_and_goes_out():
    """A team that has opened, its canasta on the table: 9H 9S take 9D, and no card is left: going out."""
    state = position("classic", hands={0: "9H 9S", 2: "4C 4S"}, melds={0: ["KH KS KD KC KH KS KD"]}, pile="9D")
    take = next(a for a in legal_actions(state) if a.kind == TAKE_PILE)
    apply(state, take)
    assert [a.kind for a in legal_actions(state)] == [GO_OUT]


@pytest.mark.parametrize("name", [n for n, r in PRESETS.items() if r.canastas_to_go_out == 1])
def test_every_take_that_goes_out_at_once_is_a_legal_opening_and_the_way_out_follows(name):
    """On the random take positions of test_game_openings.py (presets that go out with one canasta, where such
    takes come up): each offered take that leaves fewer than two cards is a legal opening by meld_oracle (the
    rules' enumeration, keeping nothing), and after it the game offers going out and nothing else."""
    written = WRITTEN[name]
    found = 0
    for seed in range(40):
        for case in random_cases(name, seed, 30):
            if case.top is None:
                continue
            rest = sum(1 for c in case.state.pile[:-1] if not c.is_red_three)
            hand = list(case.hand.cards)
            minimum = written.minimum(case.state.score_of(case.state.current_player))
            legal = {o.melds for o in openings(written, case.hand, minimum, keep=0, top=case.top)}
            for a in legal_actions(case.state):
                if a.kind != TAKE_PILE or cards_left(a, hand, rest) >= 2:
                    continue
                found += 1
                assert names(a.melds) in legal, (case.describe(), a.to_text())
                after = apply(case.state.clone(), a)
                assert [b.kind for b in legal_actions(after)] == [GO_OUT], (case.describe(), a.to_text())
    assert found >= 3, found
