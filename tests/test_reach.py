"""engine/reach.py, the counting core's quick bound: it may only say "surely not". On the hands random play
reaches in every preset (and on the same hands after a red three drawn as the stock's last card: no discard),
it never says no where the exact checks (``check_go_out``, ``find_go_out``, ``check_take_pile``) say yes, and
it does rule most hands out (else it would be no use)."""

from __future__ import annotations

import random

import pytest

from canasta_tutor.engine.go_out_search import find_go_out
from canasta_tutor.engine.going_out import check_go_out
from canasta_tutor.engine.melds import GROUP, meld_key
from canasta_tutor.engine.pile import check_take_pile
from canasta_tutor.engine.reach import count_hand, go_out_within_reach, table_facts, take_within_reach
from canasta_tutor.engine.rules import PRESETS
from canasta_tutor.engine.situation import Situation
from canasta_tutor.game import DRAW_PHASE, MELD_PHASE, Game, apply, legal_actions

HANDS = 12   # per preset: about 2,000 states each


def reached_states(name: str):
    """Every state of random play in ``HANDS`` hands of ``name`` (a copy of each)."""
    game = Game(name)
    for seed in range(HANDS):
        state = game.deal(seed, 1, (0,) * game.num_teams)
        rng = random.Random(seed)
        while not state.is_terminal():
            yield state
            acts = legal_actions(state)
            apply(state, acts[rng.randrange(len(acts))])


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_quick_bound_never_says_no_where_the_core_says_yes(name):
    rules = PRESETS[name]
    yes = ruled_out = judged = 0
    takes_yes = takes_judged = 0
    for state in reached_states(name):
        p = state.current_player
        hand, melds = tuple(state.hands[p]), tuple(state.melds[state.team_of(p)])
        if state.phase == MELD_PHASE:
            judged += 1
            quick = go_out_within_reach(count_hand(hand), table_facts(melds), rules)
            exact = bool(check_go_out(Situation(hand=hand, melds=melds, score=state.score_of(p), rules=rules)))
            assert quick or not exact, (name, " ".join(c.code for c in hand), melds)
            yes += exact
            ruled_out += not quick
            # no discard (after a red three drawn as the stock's last card)
            quick = go_out_within_reach(count_hand(hand), table_facts(melds), rules, allow_discard=False)
            if not quick:
                plan, _problems = find_go_out(hand, melds, rules, allow_discard=False)
                assert plan is None, (name, "no discard", " ".join(c.code for c in hand), melds)
        elif state.phase == DRAW_PHASE and state.pile:
            takes_judged += 1
            top = state.pile[-1]
            group = any(meld_key(m) == (GROUP, top.rank) for m in melds)
            quick = take_within_reach(hand, top, bool(melds), group)
            exact = bool(check_take_pile(Situation(hand=hand, melds=melds, score=state.score_of(p),
                                                   pile=tuple(state.pile), rules=rules,
                                                   stock_empty=not state.stock)))
            assert quick or not exact, (name, "take", " ".join(c.code for c in hand), state.pile, melds)
            takes_yes += exact
    # the exact core said yes often enough for the test to mean something, and the bound rules most hands out
    assert yes >= 10 and takes_yes >= 50, (yes, takes_yes)
    assert ruled_out > judged / 2, (ruled_out, judged)
