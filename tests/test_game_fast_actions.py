"""The game's fast enumeration of legal actions gives exactly the plain one: the same actions in the same order
(random play with a seed depends on the order), over many random states of every preset.

The plain enumeration below is the game model's as it was before it was made fast (``canasta_tutor/game/
state.py`` at 13d8dd4): every new meld built from the hand, every lay-off judged by the engine's
``meld_facts``, the way out found by ``find_go_out`` itself, a new ``Action`` for everything. It is the oracle;
the game's own code may share actions, read melds once and take the engine's fast go-out path.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta_tutor.engine.cards import SEQUENCE_ORDER, Card, card_points
from canasta_tutor.engine.errors import SituationError
from canasta_tutor.engine.going_out import find_go_out
from canasta_tutor.engine.melds import CANASTA_SIZE, GROUP, SEQUENCE, meld_facts, meld_key
from canasta_tutor.engine.pile import check_take_pile
from canasta_tutor.engine.rules import PRESETS, RuleSet
from canasta_tutor.engine.situation import Situation, max_hand_cards
from canasta_tutor.game import (
    DISCARD,
    DRAW,
    END,
    GO_OUT,
    LAY_OFF,
    MELD,
    SWAP,
    TAKE_PILE,
    Action,
    Game,
    apply,
    legal_actions,
)
from canasta_tutor.game import DRAW_PHASE, MELD_PHASE
from canasta_tutor.game.openings import OPENING_LIMIT

# --- the plain enumeration (the oracle) ------------------------------------------------------------------------

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
    naturals = [c for c in hand if c.rank == top.rank and not c.is_wild]
    index = next((i for i, m in enumerate(melds) if meld_key(m) == (GROUP, top.rank)), None)
    if len(naturals) < 2 and index is None and not (naturals and melds and any(c.is_wild for c in hand)):
        return []
    if len(hand) > max_hand_cards(rules):
        return []   # beyond any real game's hand: the engine does not judge it (see the package notes)
    try:
        verdict = check_take_pile(_situation(state, p))
    except SituationError:
        return []
    if not verdict.ok:
        return []
    if melds:
        target = index if (verdict.method == "lay-off" or (verdict.method == "pair" and index is not None)) else None
        return [Action(TAKE_PILE, cards=tuple(verdict.cards), target=target)]
    # A team that has not opened: the top card and its natural pair (or more) open, with other melds from hand.
    pile_rest = sum(1 for c in pile[:-1] if not c.is_red_three)
    minimum = rules.opening_minimum(own_score(state, p))
    acts = []
    for combo in _opening_combos(hand, rules, minimum, keep=2 - pile_rest, top=top):
        acts.append(Action(TAKE_PILE, cards=combo[0][1:], melds=combo))
    return acts


def _runs(naturals, rules):
    """Samba: the longest runs (at most seven) of one suit in ``naturals``: a list of card tuples."""
    if not rules.sequences:
        return []
    by_suit: dict[str, dict[int, Card]] = {}
    for c in naturals:
        by_suit.setdefault(c.suit, {})[SEQUENCE_ORDER[c.rank]] = c
    out = []
    for suit in sorted(by_suit):
        ranks = by_suit[suit]
        run: list[Card] = []
        for order in range(4, 16):
            if order in ranks:
                run.append(ranks[order])
                continue
            if len(run) >= 3:
                out.append(tuple(run[-7:]))
            run = []
    return out


def _opening_combos(hand, rules: RuleSet, minimum: int, *, keep: int, top: Card | None = None):
    """Sets of melds an unopened team may put down together from ``hand`` (with the pile's ``top`` card in the
    first meld, when taking the pile): each rank's natural cards all together, with as many wild cards as
    the rules allow (jokers first), sambas' runs whole; reaching ``minimum`` card points and leaving ``keep``
    cards in hand. At most :data:`OPENING_LIMIT` of them."""
    naturals = [c for c in hand if c.is_natural]
    wilds = sorted((c for c in hand if c.is_wild), key=lambda c: -c.points)
    runs = _runs(naturals, rules)
    out = []
    n_hand = len(hand)
    run_choices = [()]
    for r in runs:
        run_choices += [prev + (r,) for prev in run_choices]
    for chosen_runs in run_choices:
        rest = list(naturals)
        ok = True
        for r in chosen_runs:
            for c in r:
                if c in rest:
                    rest.remove(c)
                else:
                    ok = False
        if not ok or (top is not None and chosen_runs and sum(1 for c in rest if c.rank == top.rank) < 2):
            continue
        by_rank: dict[str, list[Card]] = {}
        for c in rest:
            by_rank.setdefault(c.rank, []).append(c)
        ranks = sorted(by_rank, key=lambda r: SEQUENCE_ORDER[r])
        if top is not None:
            if len(by_rank.get(top.rank, ())) < 2:
                continue
            ranks.remove(top.rank)
            ranks.insert(0, top.rank)
        base_points = sum(card_points(r) for r in chosen_runs)
        base_used = sum(len(r) for r in chosen_runs)

        def dfs(i, used_wild, melds, points, used):
            if len(out) >= OPENING_LIMIT:
                return
            if i == len(ranks):
                if (melds or chosen_runs) and points >= minimum and n_hand - used >= keep:
                    out.append(tuple(melds) + chosen_runs)   # the top card's meld first
                return
            rank = ranks[i]
            group = by_rank[rank]
            forced = top is not None and i == 0
            lead = [top] if forced else []
            n = len(group) + len(lead)
            if not forced:
                dfs(i + 1, used_wild, melds, points, used)
            if n < 2:
                return
            cap = min(rules.wild_capacity(n), len(wilds) - used_wild)
            for w in range(max(0, 3 - n), cap + 1):
                cards = tuple(lead + group) + tuple(wilds[used_wild:used_wild + w])
                dfs(i + 1, used_wild + w, melds + [cards], points + card_points(cards),
                    used + len(group) + w)

        dfs(0, 0, [], base_points, base_used)
    return out


def _meld_phase_actions(state) -> list[Action]:
    p = state.current_player
    t = state.team_of(p)
    hand = state.hands[p]
    melds = state.melds[t]
    rules = state.rules
    acts: list[Action] = []
    size = len(hand)
    distinct = _distinct(hand)
    if not melds:
        minimum = rules.opening_minimum(own_score(state, p))
        for combo in _opening_combos(hand, rules, minimum, keep=2):
            acts.append(Action(MELD, melds=combo))
    else:
        if size >= 3:
            groups = {}
            for i, m in enumerate(melds):
                key = meld_key(m)
                groups.setdefault(key, []).append(i)
            naturals = [c for c in hand if c.is_natural]
            wilds_low = sorted((c for c in hand if c.is_wild), key=lambda c: c.points)
            by_rank: dict[str, list[Card]] = {}
            for c in naturals:
                by_rank.setdefault(c.rank, []).append(c)
            # new groups: a rank's natural cards all together, with 0 or more wild cards (twos first)
            for rank in sorted(by_rank, key=lambda r: SEQUENCE_ORDER[r]):
                group = by_rank[rank]
                n = len(group)
                if n < 2 or (GROUP, rank) in groups:
                    continue
                for w in range(max(0, 3 - n), min(rules.wild_capacity(n), len(wilds_low)) + 1):
                    if size - n - w >= 2:
                        acts.append(Action(MELD, melds=(tuple(group) + tuple(wilds_low[:w]),)))
            for run in _runs(naturals, rules):
                if size - len(run) >= 2:
                    acts.append(Action(MELD, melds=(run,)))
            # lay off one card on a meld
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
        if rules.wild_swap:
            for i, m in enumerate(melds):
                kind, rank = meld_key(m)
                if kind != GROUP or len(m) >= CANASTA_SIZE:
                    continue
                wild_in = [c for c in m if c.is_wild]
                if not wild_in:
                    continue
                wild = max(wild_in, key=lambda c: c.points)
                for c in distinct:
                    if c.rank == rank and c.is_natural:
                        acts.append(Action(SWAP, cards=(c,), target=i, wild=wild))
    if size >= 2:
        acts += [Action(DISCARD, cards=(c,)) for c in distinct]
    go = _go_out_action(state)
    if go is not None:
        acts.append(go)
    return acts


def _go_out_action(state) -> Action | None:
    """The engine's way out for the player to move (``find_go_out``), if there is one."""
    p = state.current_player
    t = state.team_of(p)
    hand = state.hands[p]
    melds = state.melds[t]
    rules = state.rules
    if len(hand) > max_hand_cards(rules):
        return None
    # Quick necessary conditions (the search is the engine's, and slow): enough cards of a kind for the
    # canastas needed, and at most one card (the discard) without a place to go.
    counts: dict[str, int] = {}
    suit_orders = set()
    wilds = 0
    for c in hand:
        counts[c.rank] = counts.get(c.rank, 0) + 1
        if c.is_natural:
            suit_orders.add((c.suit, SEQUENCE_ORDER[c.rank]))
        elif c.is_wild:
            wilds += 1
    groups = {}
    on_table = set()
    canastas = 0
    potential = 0
    for m in melds:
        kind, key = meld_key(m)
        if len(m) >= CANASTA_SIZE:
            canastas += 1
        if kind == GROUP:
            groups[key] = m
        elif kind == SEQUENCE:
            on_table.update((key, SEQUENCE_ORDER[c.rank]) for c in m)
    short = rules.canastas_to_go_out - canastas
    if short > 0:
        swappable = sum(1 for m in groups.values() if len(m) < CANASTA_SIZE for c in m if c.is_wild) \
            if rules.wild_swap else 0
        spare_wild = min(wilds + swappable, rules.max_wild)
        for rank in set(counts) | set(groups):
            if rank in SEQUENCE_ORDER:
                group = groups.get(rank, ())
                if len(group) < CANASTA_SIZE and counts.get(rank, 0) + len(group) + spare_wild >= CANASTA_SIZE:
                    potential += 1
        if rules.sequences:
            by_suit: dict[str, int] = {}
            for suit, _o in suit_orders:
                by_suit[suit] = by_suit.get(suit, 0) + 1
            for m in melds:
                kind, key = meld_key(m)
                if kind == SEQUENCE and len(m) < CANASTA_SIZE:
                    by_suit[key] = by_suit.get(key, 0) + len(m)
            potential += sum(1 for v in by_suit.values() if v >= CANASTA_SIZE)
        if potential < short:
            return None
    placed = suit_orders | on_table
    lone = 0
    for c in hand:
        if c.is_natural and counts[c.rank] == 1 and c.rank not in groups:
            if rules.sequences:
                o, su = SEQUENCE_ORDER[c.rank], c.suit
                if any((su, o + a) in placed and (su, o + b) in placed for a, b in ((-2, -1), (-1, 1), (1, 2))):
                    continue   # it may be part of a run of three, from hand or with a sequence on the table
            lone += 1
    black = counts.get("3", 0)
    if black:   # black threes: one meld of three or four (two and a wild card where allowed), the rest lone
        sizes = (2, 3, 4) if rules.black_threes_with_wild else (3, 4)
        lone += min([black - v for v in sizes if v <= black] + [black])
    if lone > 1:
        return None
    minimum = 0
    if not melds and not rules.concealed_needs_no_minimum:
        minimum = rules.opening_minimum(own_score(state, p))
    try:
        plan, _problems = find_go_out(tuple(hand), tuple(melds), rules, need=rules.canastas_to_go_out,
                                      minimum=minimum)
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
