"""Playing a move: :func:`apply` (the rules' effect on the state) and, for a move refused,
:func:`why_illegal` (the engine's reasons, carried by :class:`IllegalMove`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.cards import format_cards
from ..engine.errors import CanastaError, SituationError, clip
from ..engine.go_out_search import find_go_out
from ..engine.going_out import check_go_out
from ..engine.i18n import gettext as _
from ..engine.melds import CANASTA_SIZE, GROUP, check_add_to_meld, check_meld, check_swap, check_team_melds, meld_key
from ..engine.opening import check_opening
from ..engine.pile import check_take_pile
from ..engine.situation import Situation
from ..engine.verdict import Reason, Verdict
from .actions import (
    DISCARD,
    DRAW,
    DRAW_PHASE,
    END,
    GO_OUT,
    HAND_OVER,
    LAY_OFF,
    MELD,
    MELD_PHASE,
    SWAP,
    TAKE_PILE,
    Action,
)
from .legal import legal_actions, situation_of, take_actions

if TYPE_CHECKING:
    from .state import State


class IllegalMove(CanastaError):
    """An action the rules do not allow now; ``verdict`` holds the engine's reasons."""

    def __init__(self, verdict: Verdict, action: Action | None = None):
        self.verdict = verdict
        self.action = action
        if action is not None:
            said = _("illegal move ({action}): {reasons}").format(action=clip(action.to_text()),
                                                                  reasons=verdict.sentence)
        else:
            said = _("illegal move (this move): {reasons}").format(reasons=verdict.sentence)
        super().__init__(said)


def apply(state: State, action: Action) -> State:
    """Apply ``action`` for the player to move. Changes ``state`` in place and returns it (``clone()``
    first to keep the old one). Raises :class:`IllegalMove`, carrying the engine's reasons, when the action
    is not legal now; the state is then unchanged."""
    if not isinstance(action, Action):
        raise CanastaError(f"apply: an Action is needed, not {clip(repr(action), 60)}")
    if state._legal is None:
        legal_actions(state)
    if not _listed(state, action) and not _allowed_beyond_list(state, action):
        raise IllegalMove(why_illegal(state, action), action)
    _EFFECTS[action.kind](state, action)
    state.history.append(action)
    state._legal = state._legal_set = None
    return state


def _listed(state: State, action: Action) -> bool:
    """Is ``action`` one of ``legal_actions`` (the same object, as random play and bots pass it back, or an
    equal one)?"""
    for a in state._legal:
        if a is action:
            return True
    if state._legal_set is None:
        state._legal_set = frozenset(state._legal)
    return action in state._legal_set


def _allowed_beyond_list(state: State, a: Action) -> bool:
    """A ``meld`` or ``lay_off`` that ``legal_actions`` does not list (it offers each rank's cards together)
    but the engine's checks allow: three of four kings, a meld with another choice of wild cards. The player
    must keep two cards; a team that has not opened must reach its minimum (``check_opening``). A ``take_pile``
    with more cards melded at once with the top card: ``State.allows_take_in_one_go``."""
    if a.kind == TAKE_PILE:
        return state.allows_take_in_one_go(a)
    if state.phase != MELD_PHASE or a.kind not in (MELD, LAY_OFF) or a.swaps or a.lay_offs or a.discard:
        return False
    p = state.current_player
    used = [c for m in a.melds for c in m] if a.kind == MELD else list(a.cards)
    if not used or a.wild is not None:
        return False
    rest = _left_in_hand(state.hands[p], used)
    if rest is None or len(rest) < 2:
        return False
    melds = state.melds[state.team_of(p)]
    if a.kind == LAY_OFF:
        return _lay_off_allowed(melds, a, state.rules)
    return _new_melds_allowed(state, p, melds, a)


def _left_in_hand(hand, used) -> list | None:
    """The hand less the cards ``used`` (one copy each), or ``None`` when one of them is not in it."""
    rest = list(hand)
    for c in used:
        if c not in rest:
            return None
        rest.remove(c)
    return rest


def _lay_off_allowed(melds, a: Action, rules) -> bool:
    if a.melds or a.target is None or not 0 <= a.target < len(melds):
        return False
    return bool(check_add_to_meld(melds[a.target], a.cards, rules))


def _new_melds_allowed(state: State, p: int, melds, a: Action) -> bool:
    if a.cards or a.target is not None or not all(len(m) for m in a.melds):
        return False
    if not melds:
        return bool(check_opening(Situation(melds=a.melds, score=state.score_of(p), rules=state.rules)))
    return bool(check_team_melds(tuple(melds) + tuple(a.melds), state.rules))


# --- the effect of each kind of action ---------------------------------------------------------------------------

def _take_from_hand(hand: list, cards) -> None:
    for c in cards:
        hand.remove(c)


def _melds_from_hand(state: State, hand: list, new) -> None:
    """Take the cards of the ``new`` melds from the hand; a canasta melded in one go is a concealed one."""
    t = state.team_of(state.current_player)
    for m in new:
        _take_from_hand(hand, m)
        if len(m) >= CANASTA_SIZE:
            state.concealed_canastas[t] += 1


def _swap_in(hand: list, melds: list, i: int, natural, wild) -> None:
    """``natural`` from the hand in place of ``wild`` in meld ``i``; the wild card to the hand."""
    hand.remove(natural)
    m = list(melds[i])
    m[m.index(wild)] = natural
    melds[i] = tuple(m)
    hand.append(wild)


def _mover(state: State) -> tuple[int, list, list]:
    """The player to move, his hand and his side's melds (both changed in place)."""
    p = state.current_player
    return p, state.hands[p], state.melds[state.team_of(p)]


def _next_turn(state: State) -> None:
    n = state.game.num_players
    state.current_player = (state.current_player + 1) % n
    state.phase = DRAW_PHASE
    state.took_pile = False
    state.turn_opened = bool(state.melds[state.team_of(state.current_player)])


def _do_draw(state: State, a: Action) -> None:
    p, hand, melds = _mover(state)
    state.begin_turn()
    need = state.rules.draw_count
    stock = state.stock
    while need and stock:
        c = stock.pop()
        if c.is_red_three:      # laid down at once and replaced; the last card of the stock ends the hand (000)
            state.red_threes[state.game.team_of(p)].append(c)
            state.red_three_last = not stock
        else:
            hand.append(c)
            need -= 1
    state.phase = MELD_PHASE
    state.turn_opened = bool(melds)


def _do_take_pile(state: State, a: Action) -> None:
    p, hand, melds = _mover(state)
    state.begin_turn()
    pile = state.pile
    top = pile[-1]
    _take_from_hand(hand, a.cards)
    if a.melds:   # an opening: the first meld holds the top card and the cards shown
        _melds_from_hand(state, hand, a.melds[1:])
        state.note_concealed_canasta(a.melds[0])
        melds.extend(a.melds)
    elif a.target is None:
        melds.append((top,) + tuple(a.cards))
        state.note_concealed_canasta(melds[-1])
    else:
        melds[a.target] = melds[a.target] + (top,) + tuple(a.cards)
    for c in pile[:-1]:
        (state.red_threes[state.game.team_of(p)] if c.is_red_three else hand).append(c)
    state.pile = []
    state.took_pile = True
    state.melded[p] = True
    state.phase = MELD_PHASE
    if state.rules.lone_hand and state.lone is None:
        _form_partnership(state, p)


def _do_meld(state: State, a: Action) -> None:
    p, hand, melds = _mover(state)
    _melds_from_hand(state, hand, a.melds)
    melds.extend(a.melds)
    state.melded[p] = True


def _do_lay_off(state: State, a: Action) -> None:
    p, hand, melds = _mover(state)
    _take_from_hand(hand, a.cards)
    melds[a.target] = melds[a.target] + tuple(a.cards)
    state.melded[p] = True


def _do_swap(state: State, a: Action) -> None:
    p, hand, melds = _mover(state)
    _swap_in(hand, melds, a.target, a.cards[0], a.wild)
    state.melded[p] = True


def _do_discard(state: State, a: Action) -> None:
    _p, hand, _melds = _mover(state)
    hand.remove(a.cards[0])
    state.pile.append(a.cards[0])
    _next_turn(state)


def _do_go_out(state: State, a: Action) -> None:
    p, hand, melds = _mover(state)
    for i, natural, wild in a.swaps:
        _swap_in(hand, melds, i, natural, wild)
    for i, cards in a.lay_offs:
        _take_from_hand(hand, cards)
        melds[i] = melds[i] + tuple(cards)
    _melds_from_hand(state, hand, a.melds)
    melds.extend(tuple(m) for m in a.melds)
    if a.discard is not None:
        hand.remove(a.discard)
        state.pile.append(a.discard)
    # 000: after a red three drawn as the stock's last card, melding out ends the hand with no going-out bonus
    state.went_out = None if state.red_three_last else (p, state.goes_out_concealed())
    state.phase = HAND_OVER
    if state.rules.lone_hand and state.lone is None:
        _form_partnership(state, p)


def _do_end(state: State, a: Action) -> None:
    state.phase = HAND_OVER


_EFFECTS = {DRAW: _do_draw, TAKE_PILE: _do_take_pile, MELD: _do_meld, LAY_OFF: _do_lay_off, SWAP: _do_swap,
            DISCARD: _do_discard, GO_OUT: _do_go_out, END: _do_end}


def _form_partnership(state: State, lone: int) -> None:
    """``lone_hand``: ``lone`` plays alone; the other players become one side for the rest of the hand, on the
    lowest of their seats, and their melds one table. Two groups of one rank become one meld: the second
    partner's cards join the first's; wild cards beyond what the joined meld may hold (``wild_capacity``) go
    back to the hand of the partner who melded them (the sources are silent; see docs/game-model.md)."""
    others = [q for q in range(state.game.num_players) if q != lone]
    into = state.side[others[0]]
    for q in others[1:]:
        t = state.side[q]
        if t == into:
            continue
        for m in state.melds[t]:
            _join_table(state, into, q, m)
        state.melds[t] = []
        state.concealed_canastas[into] += state.concealed_canastas[t]
        state.concealed_canastas[t] = 0
    state.side = tuple(lone if q == lone else into for q in range(state.game.num_players))
    state.lone = lone


def _join_table(state: State, into: int, q: int, m: tuple) -> None:
    """Partner ``q``'s meld ``m`` onto the table of side ``into``: a new meld there, or joined to its group of
    the same rank, the wild cards beyond the joined meld's capacity back to ``q``'s hand."""
    table = state.melds[into]
    kind, key = meld_key(m)
    i = next((i for i, x in enumerate(table) if kind == GROUP and meld_key(x) == (GROUP, key)), None)
    if i is None:
        table.append(m)
        return
    joined = table[i] + tuple(c for c in m if not c.is_wild)
    room = state.rules.wild_capacity(sum(1 for c in joined if not c.is_wild)) - sum(1 for c in joined if c.is_wild)
    for c in m:
        if not c.is_wild:
            continue
        if room > 0:
            joined += (c,)
            room -= 1
        else:
            state.hands[q].append(c)
    table[i] = joined


# --- why an action is refused ----------------------------------------------------------------------------------

def why_illegal(state: State, action: Action) -> Verdict:
    """The engine's reasons why ``action`` is not legal now (a falsy :class:`Verdict`)."""
    refused = _wrong_phase(state.phase, action.kind)
    if refused is not None:
        return Verdict(False, (refused,))
    hand = list(state.hands[state.current_player])
    rest, missing = _split_used(hand, _cards_used(action))
    reasons: list[Reason] = []
    if missing and action.kind != GO_OUT:
        reasons.append(Reason("not-in-hand", _("You do not hold {cards}.").format(cards=format_cards(missing))))
    reasons += _REFUSALS[action.kind](state, action, hand, rest, missing)
    if not reasons:
        reasons.append(Reason("not-legal", _("That is not one of the moves open now.")))
    return Verdict(False, tuple(reasons))


_DRAW_KINDS = (DRAW, TAKE_PILE, END)


def _wrong_phase(phase: str, kind: str) -> Reason | None:
    """Why no action, or no action of this ``kind``, is open in this ``phase`` (``None`` when one may be)."""
    if phase == HAND_OVER:
        return Reason("hand-over", _("The hand is over: no more moves."))
    if phase == DRAW_PHASE and kind not in _DRAW_KINDS:
        return Reason("draw-first", _("First draw from the stock or take the pile."))
    if phase == MELD_PHASE and kind in _DRAW_KINDS:
        return Reason("already-drawn", _("You have drawn already this turn: meld, lay off, then discard or go out."))
    return None


def _cards_used(action: Action) -> list:
    """Every card from hand the action names (a take's melds are checked by the engine, not here)."""
    k = action.kind
    return list(action.cards) + [c for m in action.melds for c in m if k != TAKE_PILE] + \
        [c for _i, cs in action.lay_offs for c in cs] + [n for _i, n, _w in action.swaps] + \
        ([action.discard] if action.discard is not None else [])


def _split_used(hand: list, used: list) -> tuple[list, list]:
    """``(the hand less the cards used, the cards used that are not in it)``."""
    rest = list(hand)
    missing = []
    for c in used:
        if c in rest:
            rest.remove(c)
        else:
            missing.append(c)
    return rest, missing


def _why_draw(state: State, action: Action, hand, rest, missing) -> list[Reason]:
    if not state.stock:
        return [Reason("stock-empty", _("The stock is used up: take the pile, or the hand ends."))]
    return []


def _why_end(state: State, action: Action, hand, rest, missing) -> list[Reason]:
    if state.stock:
        return [Reason("stock-left", _("The stock still holds {count} cards: draw or take the pile.").format(
            count=len(state.stock)))]
    return []


def _why_take(state: State, action: Action, hand, rest, missing) -> list[Reason]:
    return _engine_refusal(state, check_take_pile, lambda v: _take_not_this_way(state, action))


def _take_not_this_way(state: State, action: Action) -> str:
    """Why a take the engine allows is refused as written: what is wrong with its melds, and the ways open (a
    refusal always names its reason, issue 19)."""
    p = state.current_player
    melds = state.melds[state.team_of(p)]
    problems = []
    if action.melds:
        for m in action.melds:
            v = check_meld(m, state.rules)
            if not v.ok:
                problems.append(v.reasons[0].text)
        if not problems and melds:
            problems.append(_("Your team has opened: show only the cards that meld with the top card."))
        elif not problems:
            v = check_opening(Situation(melds=action.melds, score=state.score_of(p), rules=state.rules))
            problems += [r.text for r in v.reasons if not v.ok and r.code != "minimum"]
        if not problems and (not action.melds[0] or action.melds[0][0] != state.pile[-1]):
            problems.append(_("The first meld must hold the top card, {top}, first.").format(top=state.pile[-1]))
    elif not melds:
        problems.append(_("Your team has not melded yet: the take carries your first meld (the top card's meld "
                          "first), and it must reach the minimum."))
    ways = take_actions(state)
    if ways:
        said = [a.describe(melds).rstrip(".") for a in ways[:3]]
        opened = " or ".join(t[:1].lower() + t[1:] for t in said) + (" (or another of the ways offered)"
                                                                    if len(ways) > 3 else "")
        if problems:
            return _("You may take the pile, but not this way: {problems} You could {ways}.").format(
                problems=" ".join(problems), ways=opened)
        return _("You may take the pile, but not this way: you could {ways}.").format(ways=opened)
    return _("You may take the pile only if you then go out in the same turn, and the game offers a take only "
             "when a card is left to discard: draw from the stock instead.")


def _why_meld(state: State, action: Action, hand, rest, missing) -> list[Reason]:
    reasons: list[Reason] = []
    for m in action.melds:
        v = check_meld(m, state.rules)
        if not v.ok:
            reasons.extend(v.reasons)
    if not state.melds[state.team_of(state.current_player)] and not reasons:
        v = check_opening(Situation(melds=action.melds, score=state.score_of(state.current_player),
                                    rules=state.rules))
        if not v.ok:
            reasons.extend(v.reasons)
    if not reasons and len(rest) < 2:
        reasons.append(Reason("keep-a-card", _("After melding you must keep a card to discard and one to hold, "
                                               "unless you go out.")))
    return reasons


def _why_lay_off(state: State, action: Action, hand, rest, missing) -> list[Reason]:
    melds = state.melds[state.team_of(state.current_player)]
    if action.target is None or not 0 <= action.target < len(melds):
        return [Reason("no-such-meld", _("Your team has no meld {number}.").format(number=action.target))]
    v = check_add_to_meld(melds[action.target], action.cards, state.rules)
    if not v.ok:
        return list(v.reasons)
    if len(rest) < 2:
        return [Reason("keep-a-card", _("After laying off you must keep a card to discard and one to hold, unless "
                                        "you go out."))]
    return []


def _why_swap(state: State, action: Action, hand, rest, missing) -> list[Reason]:
    melds = state.melds[state.team_of(state.current_player)]
    v = check_swap(tuple(hand), tuple(melds), state.rules, card=action.cards[:1] or None)
    return [] if v.ok else list(v.reasons)


def _why_discard(state: State, action: Action, hand, rest, missing) -> list[Reason]:
    if state.red_three_last:
        return [state.red_three_last_reason()]
    if len(hand) < 2 and not missing:
        return [Reason("last-card", _("Discarding your last card would be going out, which needs {count} "
                                      "canasta(s) on your team's side.").format(
                                          count=state.rules.canastas_to_go_out))]
    return []


def _why_go_out(state: State, action: Action, hand, rest, missing) -> list[Reason]:
    if state.red_three_last:
        if action.discard is not None:
            return [state.red_three_last_reason()]
        return _why_not_melding_out(state)
    return _engine_refusal(state, check_go_out, lambda v: _("You may go out, but not this way: {reason}").format(
                           reason=" ".join(r.text for r in v.reasons[:1])))


def _why_not_melding_out(state: State) -> list[Reason]:
    """After a red three drawn as the stock's last card, a go_out without a discard (melding out) refused: the
    engine's reasons why not every card can be melded or laid off, or the way it finds."""
    p = state.current_player
    t = state.team_of(p)
    try:
        plan, problems = find_go_out(tuple(state.hands[p]), tuple(state.melds[t]), state.rules,
                                     need=state.rules.canastas_to_go_out, allow_discard=False)
    except SituationError as e:
        return [Reason("too-large", str(e))]
    if plan is None:
        lead = Reason("cannot-meld-out", _("The last card of the stock was a red three: you may meld and lay off "
                                           "every card only if they all find a place, with the canastas your team "
                                           "needs ({count}), and no discard.").format(
                                               count=state.rules.canastas_to_go_out))
        return [lead] + [r for r in problems[:1]]
    ways = "; ".join(plan.describe(state.melds[t]))
    return [Reason("not-this-way", _("You may meld and lay off every card, but not this way: you could {ways}.").format(
        ways=ways))]


_REFUSALS = {DRAW: _why_draw, TAKE_PILE: _why_take, MELD: _why_meld, LAY_OFF: _why_lay_off, SWAP: _why_swap,
             DISCARD: _why_discard, GO_OUT: _why_go_out, END: _why_end}


def _engine_refusal(state: State, check, not_this_way) -> list[Reason]:
    """Why a take or a way out is refused: the engine's reasons (``check``, ``check_take_pile`` or
    ``check_go_out``, on the situation of the player to move); when the engine allows it, the action was not
    the way the game offers, and ``not_this_way(verdict)`` says so."""
    try:
        v = check(situation_of(state, state.current_player))
    except SituationError as e:
        return [Reason("too-large", str(e))]
    if not v.ok:
        return list(v.reasons)
    return [Reason("not-this-way", not_this_way(v))]
