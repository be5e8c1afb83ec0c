"""Legal actions: :func:`legal_actions`, every move open to the player to move, in a fixed order.

It is the game's hot path (random play and the bots ask at every step), so it shares equal actions instead of
building new ones, reads each meld on the table once, and takes the engine's fast paths where there are some.
The list is practical (each rank's natural cards melded together, openings in :mod:`.openings`); ``apply``
accepts more (see ``docs/game-model.md``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.cards import SEQUENCE_ORDER, Card
from ..engine.counts import RUN_MAX
from ..engine.errors import SituationError
from ..engine.going_out import check_go_out, find_go_out
from ..engine.melds import CANASTA_SIZE, GROUP, SEQUENCE, check_team_melds, meld_facts, meld_key
from ..engine.pile import check_take_pile
from ..engine.reach import count_hand, go_out_within_reach, take_within_reach
from ..engine.situation import Situation
from ..engine.speedups import pure_twin
from .actions import DISCARD, DRAW, DRAW_PHASE, END, GO_OUT, LAY_OFF, MELD, MELD_PHASE, SWAP, TAKE_PILE, Action
from .openings import all_runs, opening_combos, runs

if TYPE_CHECKING:
    from .state import Game, State


def legal_actions(state: State) -> list[Action]:
    """Every action the player to move may take now (an empty list once the hand is over)."""
    if state._legal is None:
        if state.phase == DRAW_PHASE:
            acts = _draw_actions(state)
        elif state.phase == MELD_PHASE:
            acts = _meld_phase_actions(state)
            if state.red_three_last:
                # 000: the hand ends with this turn; he may still meld and lay off (every card too: melding out,
                # a go_out without a discard, and no bonus), but not discard
                acts = [a for a in acts if a.kind not in (DISCARD, GO_OUT)]
                out = _meld_out_action(state)
                acts += ([out] if out is not None else []) + [_END_ACTION]
            if not acts:  # no discard keeps a card and no way out: the hand ends (only a hand of one card)
                acts = [_END_ACTION]
        else:
            acts = []
        state._legal = acts
        state._legal_set = None   # made when first needed (an action not found by identity)
    return list(state._legal)


def situation_of(state: State, player: int, **extra) -> Situation:
    """The engine's :class:`Situation` of ``player``: his hand, his side's melds, his score, the pile."""
    t = state.team_of(player)
    return Situation(hand=tuple(state.hands[player]), melds=tuple(state.melds[t]), score=state.score_of(player),
                     pile=tuple(state.pile), rules=state.rules, stock_empty=not state.stock, **extra)


# --- the enumeration's building blocks: shared actions, meld facts read once ----------------------------------
# Actions are frozen values, so equal ones can be shared: the enumeration looks them up instead of building
# (and later hashing) new ones. The tables are cleared when they grow large (a long-running process).
_DRAW_ACTION = Action(DRAW)
_END_ACTION = Action(END)
_TABLE_LIMIT = 50_000
_DISCARDS: dict = {}
_LAY_OFFS: dict = {}
_SWAPS: dict = {}
_MELDS: dict = {}
_OPENINGS: dict = {}
_MELD_INFO: dict = {}

#: The ranks a group of natural cards may have (a three is never natural).
_NATURAL_RANKS = frozenset(SEQUENCE_ORDER)


def _discard_action(c: Card) -> Action:
    a = _DISCARDS.get(c)
    if a is None:
        a = _DISCARDS[c] = Action(DISCARD, cards=(c,))
    return a


def _lay_off_action(c: Card, i: int) -> Action:
    key = (c, i)
    a = _LAY_OFFS.get(key)
    if a is None:
        if len(_LAY_OFFS) > _TABLE_LIMIT:
            _LAY_OFFS.clear()
        a = _LAY_OFFS[key] = Action(LAY_OFF, cards=(c,), target=i)
    return a


def _swap_action(c: Card, i: int, wild: Card) -> Action:
    key = (c, i, wild)
    a = _SWAPS.get(key)
    if a is None:
        if len(_SWAPS) > _TABLE_LIMIT:
            _SWAPS.clear()
        a = _SWAPS[key] = Action(SWAP, cards=(c,), target=i, wild=wild)
    return a


def _meld_action(meld: tuple) -> Action:
    a = _MELDS.get(meld)
    if a is None:
        if len(_MELDS) > _TABLE_LIMIT:
            _MELDS.clear()
        a = _MELDS[meld] = Action(MELD, melds=(meld,))
    return a


def _opening_action(combo: tuple) -> Action:
    a = _OPENINGS.get(combo)
    if a is None:
        if len(_OPENINGS) > _TABLE_LIMIT:
            _OPENINGS.clear()
        a = _OPENINGS[combo] = Action(MELD, melds=combo)
    return a


def _meld_info(m: tuple) -> tuple:
    """``(kind, key, wild cards, the highest wild card, low, high)`` of a meld on the table (``meld_key``, the
    count of its wild cards, the wild card a swap takes back, a sequence's lowest and highest rank order),
    read once per meld (melds are tuples of interned cards)."""
    info = _MELD_INFO.get(m)
    if info is None:
        if len(_MELD_INFO) > _TABLE_LIMIT:
            _MELD_INFO.clear()
        kind, key = meld_key(m)
        wild_in = [c for c in m if c.is_wild]
        best = max(wild_in, key=_points) if wild_in else None
        lo = hi = 0
        if kind == SEQUENCE:
            orders = [SEQUENCE_ORDER.get(c.rank, 0) for c in m]
            lo, hi = min(orders), max(orders)
        info = _MELD_INFO[m] = (kind, key, len(wild_in), best, lo, hi)
    return info


def _points(c: Card) -> int:
    return c.points


def _fits(game: Game, m: tuple, c: Card) -> bool:
    """May ``c`` be laid off on ``m`` (``meld_facts``, remembered per game: a meld on the table is judged with
    the same card again and again)?"""
    key = (m, c)
    ok = game.fits.get(key)
    if ok is None:
        if len(game.fits) > _TABLE_LIMIT:
            game.fits.clear()
        ok = game.fits[key] = meld_facts(m + (c,), game.rules, copies_checked=True) is not None
    return ok


# --- the draw phase: draw, take the pile, end ----------------------------------------------------------------

def _draw_actions(state: State) -> list[Action]:
    acts = [_DRAW_ACTION] if state.stock else []
    acts += take_actions(state)
    if not state.stock:
        acts.append(_END_ACTION)
    return acts


def take_actions(state: State) -> list[Action]:
    """The ways to take the pile that the game offers (none; for a team that has opened the engine's way and, when
    the top card makes a new meld under ``concealed_canasta_bonus`` (hoyle), every larger new meld of its rank
    shown at once (003's concealed canasta);
    for a team that has not opened one per opening that goes with it). Asked of ``check_take_pile`` whenever the
    counting core's quick bound (``engine.reach.take_within_reach``) does not rule a take out."""
    top = state.pile[-1] if state.pile else None
    if top is None or not top.is_natural:   # an empty pile; a wild card or a three on top stops it
        return []
    p = state.current_player
    hand = state.hands[p]
    melds = state.melds[state.team_of(p)]
    index = next((i for i, m in enumerate(melds) if _meld_info(m)[:2] == (GROUP, top.rank)), None)
    if not take_within_reach(hand, top, bool(melds), index is not None):
        return []
    try:   # the positional form: the compiled check reads tuples of cards in C, no Situation built
        verdict = check_take_pile(tuple(hand), melds, state.score_of(p), tuple(state.pile), state.rules,
                                  stock_empty=not state.stock)
    except SituationError:
        return []
    if not verdict.ok:
        return []
    if not melds:
        return _opening_takes(state, hand, top)
    target = index if (verdict.method == "lay-off" or (verdict.method == "pair" and index is not None)) else None
    first = Action(TAKE_PILE, cards=tuple(verdict.cards), target=target)
    if target is not None or verdict.method == "lay-off" or not state.rules.concealed_canasta_bonus:
        return [first]
    return [first] + _larger_takes(state, hand, melds, top, first)


def _larger_takes(state: State, hand, melds, top: Card, first: Action) -> list[Action]:
    """A team that has opened, the top card making a new meld: the same take showing more cards from hand at once
    (more natural cards of its rank, wild cards, twos first), each a legal new meld with the top card, leaving two
    cards in hand with the pile's other cards (what ``State.allows_take_in_one_go`` accepts; 003 "slegs die
    boonste kaart van die weggooipaal"). Offered where a canasta melded so pays (``concealed_canasta_bonus``,
    hoyle): elsewhere the take with the pair and the same cards laid off on its meld in the turn reach the same
    table and the same score."""
    naturals = [c for c in hand if c.rank == top.rank and c.is_natural]
    wilds = sorted((c for c in hand if c.is_wild), key=_points)
    if len(naturals) + len(wilds) <= 2:
        return []
    pile_rest = sum(1 for c in state.pile[:-1] if not c.is_red_three)
    allowed = state.game.group_wilds
    lead = [c for c in first.cards if c.is_natural]
    others = list(naturals)
    for c in lead:
        others.remove(c)
    out = []
    for k in range(len(lead), len(naturals) + 1):
        base = tuple(lead + others[:k - len(lead)])
        for w in _upto(allowed[k + 1], len(wilds)):   # the top card is one of the group's natural cards
            shown = base + tuple(wilds[:w])
            if len(shown) <= 2 or len(hand) - len(shown) + pile_rest < 2:
                continue
            if check_team_melds(tuple(melds) + ((top,) + shown,), state.rules):
                out.append(Action(TAKE_PILE, cards=shown))
    return out


def _opening_takes(state: State, hand, top: Card) -> list[Action]:
    """A team that has not opened: the top card and its natural pair (or more) open, with other melds from
    hand; the pile's other cards come to the hand after the melds (so fewer need be kept). Then the openings
    that leave fewer than two cards: the take is legal when the player goes out in the same turn (rule-decisions:
    "then the player can discard, or go out legally"), the engine finding the way."""
    pile_rest = [c for c in state.pile[:-1] if not c.is_red_three]
    minimum = state.rules.opening_minimum(state.score_of(state.current_player))
    acts = [Action(TAKE_PILE, cards=combo[0][1:], melds=combo)
            for combo in opening_combos(hand, state.rules, minimum, keep=2 - len(pile_rest), top=top)]
    if len(pile_rest) < 2:
        acts += _opening_takes_going_out(state, hand, top, pile_rest, minimum)
    return acts


def _opening_takes_going_out(state: State, hand, top: Card, pile_rest: list, minimum: int) -> list[Action]:
    """The openings with the top card that leave fewer than two cards (with the pile's others), each offered when
    the engine finds a way to go out with what is left on the new table (``find_go_out``); asked only when the
    counting core's quick bound lets every card of the hand, the top card and the pile go out."""
    rules = state.rules
    everything = list(hand) + [top] + pile_rest
    if not go_out_within_reach(count_hand(everything), ({}, []), rules):
        return []
    out = []
    for combo in opening_combos(hand, rules, minimum, keep=0, top=top):
        left = list(hand)
        for m in combo:
            for c in (m[1:] if m is combo[0] else m):
                left.remove(c)
        left += pile_rest
        if len(left) >= 2:
            continue
        try:
            plan, _problems = find_go_out(tuple(left), combo, rules, need=rules.canastas_to_go_out, explain=False)
        except SituationError:
            continue
        if plan is not None:
            out.append(Action(TAKE_PILE, cards=combo[0][1:], melds=combo))
    return out


# --- the meld phase: meld, lay off, swap, discard, go out ------------------------------------------------------

def _meld_phase_actions(state: State) -> list[Action]:
    """The meld phase's actions, in this order: new melds (each rank's natural cards, with 0 or more wild
    cards, twos first; samba's runs), lay-offs of one card (meld by meld, cards in hand order), swaps,
    discards (hand order), the way out. ``tests/test_game_fast_actions.py`` checks this list against a plain
    enumeration (every lay-off judged by the engine), ``tests/test_game_openings.py`` its melds and openings
    against the rules, by brute force."""
    p = state.current_player
    hand = state.hands[p]
    melds = state.melds[state.side[p]]
    rules = state.rules
    by_rank, wilds, threes = _hand_by_rank(hand)
    get_info = _MELD_INFO.get
    infos = [get_info(m) or _meld_info(m) for m in melds]
    distinct = list(dict.fromkeys(hand))
    if not melds:
        minimum = rules.opening_minimum(state.score_of(p))
        acts = [_opening_action(combo) for combo in opening_combos(hand, rules, minimum, keep=2)]
    else:
        acts = []
        if len(hand) >= 3:
            acts += _new_group_actions(state.game, by_rank, wilds, infos, len(hand))
            if rules.sequences:
                acts += _run_actions([c for c in hand if c.is_natural], rules, len(hand))
            acts += _lay_off_actions(state.game, melds, infos, by_rank, wilds, distinct)
        if rules.wild_swap:
            acts += _swap_actions(melds, infos, distinct)
    if len(hand) >= 2:
        acts += map(_discard_action, distinct)
    go = None if state.red_three_last else _go_out_action(state, by_rank, len(wilds), infos, threes)
    if go is not None:
        acts.append(go)
    return acts


def _hand_by_rank(hand) -> tuple[dict[str, list[Card]], list[Card], int]:
    """One pass over the hand: its natural cards by rank (hand order), its wild cards, how many threes."""
    by_rank: dict[str, list[Card]] = {}
    for c in hand:
        group = by_rank.get(c.meld_rank)   # the rank, "*" for a wild card
        if group is None:
            by_rank[c.meld_rank] = [c]
        else:
            group.append(c)
    wilds = by_rank.pop("*", [])
    threes = len(by_rank.pop("3", ()))
    return by_rank, wilds, threes


def _new_group_actions(game: Game, by_rank, wilds, infos, size: int) -> list[Action]:
    """New groups: a rank's natural cards all together (a rank the team has no group of), with 0 or more wild
    cards (twos first), keeping two cards in hand; then part of a rank's natural cards (two or more, fewer than
    all), the same way. Each rank's actions are remembered per game (:func:`_rank_groups`)."""
    group_ranks = {info[1] for info in infos if info[0] == GROUP}
    wilds_low = tuple(sorted(wilds, key=_points) if len(wilds) > 1 else wilds)
    n_wild = len(wilds_low)
    table = game.new_groups
    acts = []
    parts = []   # part of a rank's natural cards: after the whole ranks
    for rank in sorted(by_rank, key=SEQUENCE_ORDER.__getitem__):
        group = by_rank[rank]
        n = len(group)
        if n < 2 or rank in group_ranks:
            continue
        key = (tuple(group), wilds_low, min(size - 2, n + n_wild))   # more room than cards changes nothing
        got = table.get(key)
        if got is None:
            if len(table) > _TABLE_LIMIT:
                table.clear()
            got = table[key] = _rank_groups(game.group_wilds, *key)
        acts += got[0]
        parts += got[1]
    return acts + parts


def _rank_groups(allowed, group: tuple, wilds_low: tuple, room: int) -> tuple[list[Action], list[Action]]:
    """The new groups of one rank's natural cards ``group`` (hand order) with the wild cards ``wilds_low`` (twos
    first) and at most ``room`` cards: ``(all the naturals, part of them)``, each with 0 or more wild cards as the
    counting core allows (``allowed``: ``Game.group_wilds``)."""
    n = len(group)
    whole, parts = [], []
    for k in range(n, 1, -1):
        base = group[:k]
        for w in _upto(allowed[k], min(len(wilds_low), room - k)):
            (whole if k == n else parts).append(_meld_action(base + wilds_low[:w] if w else base))
    return whole, parts


def _upto(allowed: range, most: int) -> range:
    """The counts of ``allowed`` (``Game.group_wilds``) up to ``most`` (the wild cards at hand)."""
    return range(allowed.start, min(allowed.stop, most + 1))


def _run_actions(naturals, rules, size: int) -> list[Action]:
    """Samba: a new run of one suit: each suit's longest runs first (as before issue 19), then every other run
    of three to seven (part of a longer one), each leaving two cards in hand."""
    by_suit: dict[str, set[int]] = {}
    for c in naturals:
        by_suit.setdefault(c.suit, set()).add(SEQUENCE_ORDER[c.rank])
    if not any(o + 1 in orders and o + 2 in orders for orders in by_suit.values() for o in orders):
        return []   # no three in a row of one suit: no run (the common case, cheaply)
    whole = [run for run in runs(naturals, rules) if size - len(run) >= 2]
    seen = set(whole)
    return [_meld_action(run) for run in whole] + [_meld_action(run) for run in all_runs(naturals, rules)
                                                   if run not in seen and size - len(run) >= 2]


def _lay_off_actions(game: Game, melds, infos, by_rank, wilds, distinct) -> list[Action]:
    """One card laid off on one of the team's melds: meld by meld, cards in hand order. A group of natural cards
    of one rank (the common meld) is decided here, by the counting core's wild-card counts (``allowed``:
    ``Game.group_wilds``, its ``counts.group_wilds`` per number of natural cards): a natural card of the rank fits
    while the group's wild cards stay allowed, a wild card while one more is; any other meld by
    :func:`_lay_off_cards`."""
    distinct_wilds = list(dict.fromkeys(wilds)) if len(wilds) > 1 else wilds
    allowed = game.group_wilds
    get = _LAY_OFFS.get
    acts = []
    for i, m in enumerate(melds):
        info = infos[i]
        kind, key, m_wild = info[0], info[1], info[2]
        n_nat = len(m) - m_wild
        if kind == GROUP and n_nat >= 2 and key in _NATURAL_RANKS:
            naturals = by_rank.get(key)
            if naturals is not None and m_wild not in allowed[n_nat + 1]:
                naturals = None
            if naturals is None:
                if not distinct_wilds or m_wild + 1 not in allowed[n_nat]:
                    continue
                cards = distinct_wilds
            else:
                if len(naturals) > 1:
                    naturals = list(dict.fromkeys(naturals))
                cards = (sorted(naturals + distinct_wilds, key=distinct.index)   # both, in hand order
                         if distinct_wilds and m_wild + 1 in allowed[n_nat] else naturals)
        else:
            cards = _lay_off_cards(game, m, info, distinct)
        for c in cards:
            a = get((c, i))
            acts.append(a if a is not None else _lay_off_action(c, i))
    return acts


def _lay_off_cards(game: Game, m: tuple, info: tuple, distinct) -> list[Card]:
    """The cards of the hand (each once, in hand order) that may be laid off on the meld ``m``, any meld but a
    group of natural cards of one rank (:func:`_lay_off_actions` decides those), judged by ``meld_facts``."""
    kind, key, _m_wild, _best, lo, hi = info
    if kind == GROUP:
        candidates = [c for c in distinct if c.rank == key or c.is_wild]
    elif len(m) >= RUN_MAX:   # a samba is closed
        return []
    else:
        candidates = [c for c in distinct if c.suit == key and c.is_natural
                      and SEQUENCE_ORDER[c.rank] in (lo - 1, hi + 1)]
    return [c for c in candidates if _fits(game, m, c)]


def _swap_actions(melds, infos, distinct) -> list[Action]:
    """Samba: a natural card from hand in place of the wild card of an unfinished group of its rank."""
    acts = []
    for i, m in enumerate(melds):
        kind, rank, m_wild, wild, _lo, _hi = infos[i]
        if kind != GROUP or len(m) >= CANASTA_SIZE or not m_wild:
            continue
        for c in distinct:
            if c.rank == rank and c.is_natural:
                acts.append(_swap_action(c, i, wild))
    return acts


# --- going out -------------------------------------------------------------------------------------------------

def _go_out_action(state: State, by_rank, wilds: int, infos, black: int, *, allow_discard: bool = True
                   ) -> Action | None:
    """The engine's way out for the player to move (``find_go_out`` / ``check_go_out``), if there is one.
    ``by_rank`` (natural cards in hand by rank), ``wilds`` (how many wild cards), ``infos`` (``_meld_info`` of
    the team's melds) and ``black`` (how many threes), as the caller read them. ``allow_discard=False``: every
    card melded or laid off (a red three drawn as the stock's last card: no discard, 000).

    The common call (a last discard allowed, rules without sequences or swaps, no opening minimum to reach) is
    decided by the compiled check itself (``_speedups/goout``, the counting core in C: quicker than any bound);
    every other call, and every call where that module is not built, first asks the core's quick bound
    (``engine.reach.go_out_within_reach``), then the engine's search."""
    p = state.current_player
    hand = state.hands[p]
    melds = state.melds[state.team_of(p)]
    rules = state.rules
    if _GO_OUT_COMPILED and allow_discard and not rules.sequences and not rules.wild_swap and (
            melds or rules.concealed_needs_no_minimum):
        try:
            verdict = check_go_out(tuple(hand), melds, state.score_of(p), rules)
        except SituationError:
            return None
        plan = verdict.plan if verdict.ok else None
    else:
        groups = {info[1]: (len(m), info[2]) for m, info in zip(melds, infos) if info[0] == GROUP}
        sequences = [(info[1], info[4], info[5]) for info in infos if info[0] == SEQUENCE]
        if not go_out_within_reach((by_rank, wilds, black), (groups, sequences), rules, allow_discard=allow_discard):
            return None
        plan = _way_out(state, p, hand, melds, allow_discard)
    if plan is None:
        return None
    return Action(GO_OUT, melds=tuple(plan.new_melds), lay_offs=tuple(plan.lay_offs),
                  swaps=tuple(plan.swaps), discard=plan.discard)


#: ``check_go_out`` is the compiled check (``_speedups/goout`` built and used): the game asks it directly.
_GO_OUT_COMPILED = check_go_out is not pure_twin(check_go_out)


def _meld_out_action(state: State) -> Action | None:
    """After a red three drawn as the stock's last card: every card melded or laid off, no discard (000 "mag nog
    sets maken of kaarten aanleggen, maar hij mag geen kaart afgooien"), as the engine finds it."""
    p = state.current_player
    by_rank, wilds, threes = _hand_by_rank(state.hands[p])
    infos = [_meld_info(m) for m in state.melds[state.side[p]]]
    return _go_out_action(state, by_rank, len(wilds), infos, threes, allow_discard=False)


def _way_out(state: State, p: int, hand, melds, allow_discard: bool = True):
    """The engine's plan to go out (``find_go_out``; without a minimum and sequences its fast path,
    ``check_go_out``, which skips the discards that surely fail), or ``None``."""
    rules = state.rules
    minimum = 0
    if not melds and not rules.concealed_needs_no_minimum:
        minimum = rules.opening_minimum(state.score_of(p))
    try:
        if minimum or rules.sequences or not allow_discard:
            plan, _problems = find_go_out(tuple(hand), tuple(melds), rules, need=rules.canastas_to_go_out,
                                          minimum=minimum, allow_discard=allow_discard, explain=False)
        else:
            plan = check_go_out(situation_of(state, p)).plan
    except SituationError:
        return None
    return plan
