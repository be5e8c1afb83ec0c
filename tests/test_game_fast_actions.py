"""The game's fast enumeration of legal actions gives exactly the plain one: the same actions in the same order
(random play with a seed depends on the order), over many random states of every preset.

The game's enumeration is fast (shared actions, meld facts read once, the engine's fast paths); the plain one
below is the game model's as it was before (``game/state.py`` at 13d8dd4): every lay-off judged by the
engine's ``meld_facts``, the way out found by ``find_go_out`` itself, a new ``Action`` for everything. It takes
its openings and runs from the game (``opening_combos``, ``runs``): ``test_game_openings.py`` checks those
against the rules, by brute force.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta_tutor.engine.cards import SEQUENCE_ORDER, Card
from canasta_tutor.engine.errors import SituationError
from canasta_tutor.engine.going_out import find_go_out
from canasta_tutor.engine.melds import CANASTA_SIZE, GROUP, check_meld, meld_facts, meld_key
from canasta_tutor.engine.pile import check_take_pile
from canasta_tutor.engine.rules import PRESETS
from canasta_tutor.engine.situation import Situation
from canasta_tutor.game import (
    DISCARD,
    DRAW,
    DRAW_PHASE,
    END,
    GO_OUT,
    LAY_OFF,
    MELD,
    MELD_PHASE,
    SWAP,
    TAKE_PILE,
    Action,
    Game,
    apply,
    legal_actions,
)
from canasta_tutor.game.openings import all_runs, opening_combos, runs


def _distinct(cards):
    seen = set()
    out = []
    for c in cards:
        if c not in seen:
            seen.add(c)
            out.append(c)
    return out


def reference_legal_actions(state) -> list[Action]:
    """The straightforward enumeration (no shared actions, every lay-off judged by ``meld_facts``, the way out
    by ``find_go_out`` itself): what ``legal_actions`` must return, in the same order."""
    if state.phase == DRAW_PHASE:
        return _draw_actions(state)
    if state.phase == MELD_PHASE and state.red_three_last:
        # 000: a red three drawn as the stock's last card: meld and lay off, every card too (no discard), then end
        acts = [a for a in _meld_phase_actions(state) if a.kind not in (DISCARD, GO_OUT)]
        out = _go_out_action(state, allow_discard=False)
        return acts + ([out] if out is not None else []) + [Action(END)]
    if state.phase == MELD_PHASE:
        return _meld_phase_actions(state) or [Action(END)]
    return []


def own_score(state, player: int) -> int:
    """The player's score column: his team's, or under lone_hand (classic-3p) his own, whatever side he is on now
    (``game.teams`` seats each player alone there)."""
    return state.scores[next(c for c, players in enumerate(state.game.teams) if player in players)]


def _situation(state, player: int, **extra) -> Situation:
    t = state.team_of(player)
    return Situation(hand=tuple(state.hands[player]), melds=tuple(state.melds[t]), score=own_score(state, player),
                     pile=tuple(state.pile), rules=state.rules, stock_empty=not state.stock, **extra)


def _draw_actions(state) -> list[Action]:
    acts = [Action(DRAW)] if state.stock else []
    acts += _take_actions(state)
    if not state.stock:
        acts.append(Action(END))
    return acts


def _take_actions(state) -> list[Action]:
    pile = state.pile
    if not pile:
        return []
    top = pile[-1]
    if not top.is_natural:   # a wild card or a three on top stops the pile
        return []
    p = state.current_player
    t = state.team_of(p)
    hand = state.hands[p]
    melds = state.melds[t]
    rules = state.rules
    index = next((i for i, m in enumerate(melds) if meld_key(m) == (GROUP, top.rank)), None)
    try:
        verdict = check_take_pile(_situation(state, p))
    except SituationError:
        return []
    if not verdict.ok:
        return []
    if melds:
        target = index if (verdict.method == "lay-off" or (verdict.method == "pair" and index is not None)) else None
        first = Action(TAKE_PILE, cards=tuple(verdict.cards), target=target)
        if target is not None or verdict.method == "lay-off" or not rules.concealed_canasta_bonus:
            return [first]
        # hoyle: the same new meld showing more cards at once (003's concealed canasta): every count of the rank's
        # natural cards and of the wild cards (twos first) that check_meld allows with the top card, two cards kept
        naturals = [c for c in hand if c.rank == top.rank and c.is_natural]
        wilds = sorted((c for c in hand if c.is_wild), key=lambda c: c.points)
        lead = [c for c in first.cards if c.is_natural]
        others = list(naturals)
        for c in lead:
            others.remove(c)
        rest = sum(1 for c in pile[:-1] if not c.is_red_three)
        more = []
        for k in range(len(lead), len(naturals) + 1):
            for w in range(len(wilds) + 1):
                shown = tuple(lead + others[:k - len(lead)]) + tuple(wilds[:w])
                if len(shown) > 2 and len(hand) - len(shown) + rest >= 2 and check_meld((top,) + shown, rules).ok:
                    more.append(Action(TAKE_PILE, cards=shown))
        return [first] + more
    # A team that has not opened: the top card and its natural pair (or more) open, with other melds from hand
    # (the game's openings, checked against the rules in test_game_openings.py).
    pile_rest = sum(1 for c in pile[:-1] if not c.is_red_three)
    minimum = rules.opening_minimum(own_score(state, p))
    return [Action(TAKE_PILE, cards=combo[0][1:], melds=combo)
            for combo in opening_combos(hand, rules, minimum, keep=2 - pile_rest, top=top)]


def _meld_phase_actions(state) -> list[Action]:
    p = state.current_player
    hand = state.hands[p]
    melds = state.melds[state.team_of(p)]
    rules = state.rules
    acts: list[Action] = []
    if not melds:
        minimum = rules.opening_minimum(own_score(state, p))
        acts += [Action(MELD, melds=combo) for combo in opening_combos(hand, rules, minimum, keep=2)]
    else:
        if len(hand) >= 3:
            acts += _new_melds(hand, melds, rules)
            acts += _lay_offs(hand, melds, rules)
        if rules.wild_swap:
            acts += _swaps(hand, melds)
    if len(hand) >= 2:
        acts += [Action(DISCARD, cards=(c,)) for c in _distinct(hand)]
    go = _go_out_action(state)
    if go is not None:
        acts.append(go)
    return acts


def _new_melds(hand, melds, rules) -> list[Action]:
    """New groups (a rank's natural cards all together, with 0 or more wild cards, twos first), then runs."""
    size = len(hand)
    groups = {meld_key(m) for m in melds}
    naturals = [c for c in hand if c.is_natural]
    wilds_low = sorted((c for c in hand if c.is_wild), key=lambda c: c.points)
    by_rank: dict[str, list[Card]] = {}
    for c in naturals:
        by_rank.setdefault(c.rank, []).append(c)
    acts = []
    parts = []   # fewer than all of a rank's natural cards (issue 19): after every whole rank
    for rank in sorted(by_rank, key=lambda r: SEQUENCE_ORDER[r]):
        group = by_rank[rank]
        n = len(group)
        if n < 2 or (GROUP, rank) in groups:
            continue
        for k in range(n, 1, -1):
            for w in range(max(0, 3 - k), min(rules.wild_capacity(k), len(wilds_low)) + 1):
                if size - k - w >= 2:
                    (acts if k == n else parts).append(Action(MELD, melds=(tuple(group[:k]) + tuple(wilds_low[:w]),)))
    acts += parts
    whole = [run for run in runs(naturals, rules) if size - len(run) >= 2]
    acts += [Action(MELD, melds=(run,)) for run in whole]
    acts += [Action(MELD, melds=(run,)) for run in all_runs(naturals, rules) if run not in whole
             and size - len(run) >= 2]
    return acts


def _lay_offs(hand, melds, rules) -> list[Action]:
    """One card laid off on a meld, meld by meld, cards in hand order, each judged by ``meld_facts``."""
    distinct = _distinct(hand)
    acts = []
    for i, m in enumerate(melds):
        kind, key = meld_key(m)
        if kind == GROUP:
            candidates = [c for c in distinct if c.rank == key or c.is_wild]
        else:
            orders = [SEQUENCE_ORDER[c.rank] for c in m]
            if len(m) >= 7:
                continue
            lo, hi = min(orders), max(orders)
            candidates = [c for c in distinct if c.suit == key and c.is_natural
                          and SEQUENCE_ORDER[c.rank] in (lo - 1, hi + 1)]
        for c in candidates:
            if meld_facts(m + (c,), rules, copies_checked=True) is not None:
                acts.append(Action(LAY_OFF, cards=(c,), target=i))
    return acts


def _swaps(hand, melds) -> list[Action]:
    acts = []
    for i, m in enumerate(melds):
        kind, rank = meld_key(m)
        wild_in = [c for c in m if c.is_wild]
        if kind != GROUP or len(m) >= CANASTA_SIZE or not wild_in:
            continue
        wild = max(wild_in, key=lambda c: c.points)
        for c in _distinct(hand):
            if c.rank == rank and c.is_natural:
                acts.append(Action(SWAP, cards=(c,), target=i, wild=wild))
    return acts


def _go_out_action(state, *, allow_discard: bool = True) -> Action | None:
    """The engine's way out for the player to move (``find_go_out``, asked of every hand: no quick bound), if
    there is one."""
    p = state.current_player
    hand = state.hands[p]
    melds = state.melds[state.team_of(p)]
    rules = state.rules
    minimum = 0
    if not melds and not rules.concealed_needs_no_minimum:
        minimum = rules.opening_minimum(own_score(state, p))
    try:
        plan, _problems = find_go_out(tuple(hand), tuple(melds), rules, need=rules.canastas_to_go_out,
                                      minimum=minimum, allow_discard=allow_discard)
    except SituationError:
        return None
    if plan is None:
        return None
    return Action(GO_OUT, melds=tuple(plan.new_melds), lay_offs=tuple(plan.lay_offs),
                  swaps=tuple(plan.swaps), discard=plan.discard)


# --- the comparison ---------------------------------------------------------------------------------------------

def play_and_compare(game, seed, *, meld_bias=0.0, hands=1):
    """Play ``hands`` hands from ``seed``, choosing at random (with ``meld_bias``, a move other than a discard
    or a draw is preferred, so that tables fill up and ways out appear); at every state, the fast and the plain
    enumerations must agree. Returns how many states were compared."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    compared = 0
    for k in range(hands):
        while not state.is_terminal():
            fast = legal_actions(state)
            plain = reference_legal_actions(state)
            assert fast == plain, (game.rules.name, seed, state.hand_number, len(state.history))
            compared += 1
            busy = [a for a in fast if a.kind not in (DISCARD, DRAW)]
            acts = busy if busy and rng.random() < meld_bias else fast
            apply(state, acts[rng.randrange(len(acts))])
        if k + 1 < hands and not state.is_game_over():
            state = state.next_hand()
    return compared


@pytest.mark.parametrize("name", list(PRESETS))
def test_fast_enumeration_gives_the_plain_one_in_random_play(name):
    game = Game(name)
    compared = sum(play_and_compare(game, seed, meld_bias=bias)
                   for seed in range(6) for bias in (0.0, 0.5, 0.9))
    assert compared > 1000


@settings(max_examples=40)
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 2**32), st.floats(0, 1), st.integers(1, 3))
def test_fast_enumeration_gives_the_plain_one_on_random_states(name, seed, bias, hands):
    # later hands of a game too: scores raise the opening minimum
    play_and_compare(Game(name), seed, meld_bias=bias, hands=hands)
