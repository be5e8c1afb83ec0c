"""The discard pile: is it frozen, is it stopped, and may this player take it?

``pile`` always lists the discard pile from the bottom to the top: its last
card is the top card. ``melds`` are the melds the player's own team has on the
table; no melds means the team has not opened.

>>> check_frozen("5D 2C 9S", melds=["KH KS KD"]).sentence
'Yes: the pile is frozen because 2♣ lies in it.'
>>> v = check_take_pile("7H 7S KD 4C", melds=[], score=0, pile="5D 9S 7C")
>>> v.ok
False
>>> check_take_pile("7H 7S KD 4C", melds=["KH KS KC"], score=0, pile="5D 9S 7C").cards
(Card('7H'), Card('7S'))
"""

from __future__ import annotations

from collections import Counter

from . import counts, speedups
from .cards import (
    ALL_CARDS,
    BLACK_THREES,
    RANK_POINTS,
    RED_THREES,
    SEQUENCE_ORDER,
    WILD_CARDS,
    Card,
    card_points,
    format_cards,
    rank_plural,
    sort_key,
)
from .counts import most_meld_points
from .go_out_search import find_go_out
from .i18n import NP_, ngettext, pgettext
from .i18n import gettext as _
from .melds import CANASTA_SIZE, GROUP, NONE, SAMBA, as_cards, check_add_to_meld, check_meld, meld_facts, meld_key
from .numbers import join_words, number_word
from .opening import explain_minimum, max_meld_points
from .rules import RuleSet
from .situation import Situation, ensure_hand_size, ensure_no_red_three_in_hand, search_budget, takes_situation
from .verdict import LazyReasons, Reason, Verdict, verdict_type

TakeVerdict = verdict_type(
    "TakeVerdict", "method cards meld top", ("", (), (), None),
    """May the player take the pile? ``cards``: the cards from hand shown with the
    top card; ``meld``: the meld the top card ends up in; ``method``: ``pair``,
    ``natural-and-wild`` or ``lay-off``; ``top``: the top card.""")


#: One card of a rank, as a sentence names it after "natural" ("one natural ace", "no natural 7").
_ONE_OF = {"A": NP_("one rank", "ace"), "J": NP_("one rank", "jack"), "Q": NP_("one rank", "queen"),
           "K": NP_("one rank", "king")}


def _one_of(rank: str) -> str:
    mark = _ONE_OF.get(rank)
    return pgettext(*mark) if mark else rank


@takes_situation("pile", "melds", "rules")
def check_frozen(situation: Situation) -> Verdict:
    """Is the pile frozen for this team? Truthy when frozen; every reason is listed.

    Takes a :class:`Situation` (its ``pile``, ``melds`` and ``rules``), or the old
    ``check_frozen(pile, melds=(), rules=CLASSIC)``.
    """
    return _frozen(situation.pile, list(situation.melds), situation.rules)


def _pile_bits(pile) -> int:
    """What lies in the pile as the counting core reads it (``counts.PILE_WILD`` and the others)."""
    return ((counts.PILE_WILD if not WILD_CARDS.isdisjoint(pile) else 0)
            | (counts.PILE_RED_THREE if not RED_THREES.isdisjoint(pile) else 0)
            | (counts.PILE_BLACK_THREE if not BLACK_THREES.isdisjoint(pile) else 0))


def frozen_for_everyone(pile, rules: RuleSet) -> bool:
    """Is the pile frozen whichever team takes it (a team that has opened included)? Decided by the counting core
    (``counts.flat_frozen``), as :func:`check_frozen` is; the bots ask it of the pile they see."""
    return counts.flat_frozen(_pile_bits(pile), _rule_tables(rules)[1], 1) != 0


def ranks_taken_onto(melds, rules: RuleSet) -> set[str]:
    """The ranks of the groups among ``melds`` on which a team could lay the top card off to take a pile that is
    not frozen for it: a legal group of one natural rank, a canasta only under ``take_onto_canasta``, as the
    counting core decides the lay-off way (``counts.flat_take_way``). The bots read the opponents' melds with it:
    a discard of such a rank may give them the pile."""
    _rules, flags, caps, ncaps = _rule_tables(rules)
    ranks = set()
    for meld in melds:
        wild = sum(1 for c in meld if c.is_wild)
        naturals = {c.rank for c in meld if c.is_natural}
        nat = len(meld) - wild
        if len(naturals) != 1 or nat != sum(1 for c in meld if c.is_natural) or \
                not counts.flat_legal_group(nat, wild, caps, ncaps):
            continue   # not a group of one natural rank (a sequence, black threes)
        if (flags & counts.ONTO_CANASTA or len(meld) < counts.FLAT_CANASTA) and \
                wild <= counts.flat_cap(caps, ncaps, nat + 1):
            ranks.add(next(iter(naturals)))
    return ranks


def _frozen(pile, melds, rules: RuleSet) -> Verdict:
    """:func:`check_frozen`: the counting core decides (``counts.flat_frozen``), a sentence for each of its
    reasons."""
    why = counts.flat_frozen(_pile_bits(pile), _rule_tables(rules)[1], len(melds))
    reasons = []
    for bit, code, cards in ((counts.FROZEN_WILD, "wild-in-pile", WILD_CARDS),
                             (counts.FROZEN_RED_THREE, "red-three-in-pile", RED_THREES),
                             (counts.FROZEN_BLACK_THREE, "black-three-in-pile", BLACK_THREES)):
        if why & bit:
            cards = [c for c in pile if c in cards]
            reasons.append(Reason(code, ngettext("The pile is frozen because {cards} lies in it.",
                                                 "The pile is frozen because {cards} lie in it.",
                                                 len(cards)).format(cards=_and(cards))))
    if why & counts.FROZEN_UNOPENED:
        reasons.append(Reason("not-opened", _("The pile is frozen for your team because your team has not melded "
                                              "yet.")))
    if why & counts.FROZEN_ALWAYS:
        reasons.append(Reason("always-frozen", _("Under this house rule the pile is always frozen.")))
    if reasons:
        return Verdict(True, tuple(reasons))
    reasons = [Reason("not-frozen", _freezers(rules))]
    black = [c for c in pile if c.is_black_three]
    if black:  # a learner may think a black three freezes the pile: say why it does not
        reasons.append(Reason("black-three-not-freezing", ngettext(
            "A black three does not freeze the pile ({cards}): on top, a black three only blocks the pile until the "
            "next discard covers it.",
            "Black threes do not freeze the pile ({cards}): on top, a black three only blocks the pile until the "
            "next discard covers it.", len(black)).format(cards=_and(black))))
    return Verdict(False, tuple(reasons))


def _freezers(rules: RuleSet) -> str:
    """The sentence that the pile is not frozen, naming the cards that would freeze it under ``rules``."""
    red, black = rules.red_three_freezes_pile, rules.black_three_freezes_pile
    if red and black:
        return _("The pile is not frozen: no wild card, red three or black three lies in it, and your team has "
                 "opened.")
    if red:
        return _("The pile is not frozen: no wild card or red three lies in it, and your team has opened.")
    if black:
        return _("The pile is not frozen: no wild card or black three lies in it, and your team has opened.")
    return _("The pile is not frozen: no wild card lies in it, and your team has opened.")


def _and(cards) -> str:
    return join_words(_("a joker") if c.rank == "JK" else str(c) for c in cards)


def check_stopped(pile) -> Verdict:
    """Is the pile stopped (nobody may take it) because of its top card? Truthy when stopped."""
    pile = as_cards(pile)
    if not pile:
        return Verdict(True, (Reason("empty-pile", _("The pile is empty: there is nothing to take.")),))
    top = pile[-1]
    if top.is_wild:
        return Verdict(True, (Reason("wild-on-top", _("{top} lies on top: with a wild card on top nobody may take "
                                                      "the pile.").format(top=top)),))
    if top.is_black_three:
        return Verdict(True, (Reason("black-three-on-top", _("{top} lies on top: with a black three on top nobody "
                                                             "may take the pile, until the next discard covers "
                                                             "it.").format(top=top)),))
    if top.is_red_three:
        return Verdict(True, (Reason("red-three-on-top", _("{top} lies on top: a red three can never be melded, so "
                                                           "nobody may take the pile.").format(top=top)),))
    return Verdict(False, (Reason("not-stopped", _("{top} on top does not stop the pile.").format(top=top)),))


def _finishable(hand_left: list[Card], pile_rest: list[Card], melds_after, rules, *, minimum: int = 0):
    """Can the turn be finished after taking: a discard that keeps a card, or going out?"""
    cards = hand_left + pile_rest
    if len(cards) >= 2:
        return True, None
    plan, problems = find_go_out(cards, melds_after, rules, minimum=minimum)
    if plan is not None:
        return True, plan
    return False, problems


@takes_situation("hand", "melds", "score", "pile", "rules")
def check_take_pile(situation: Situation) -> TakeVerdict:
    """May the player take the whole pile now, at the start of the turn, with this hand?

    The top card must be melded at once, with cards from the hand or on one of
    the team's melds, and the turn must then be completable (a discard, or
    going out legally). A team that has not opened must reach its opening
    minimum with the top card and cards from hand only.

    Takes a :class:`Situation` (``hand``, ``melds``, ``score``, ``pile``, ``rules``, ``stock_empty``), or the
    old ``check_take_pile(hand, melds=(), score=0, pile=(), rules=CLASSIC, *, stock_empty=False)``.

    Compiled where built (``_speedups/take.pyx``, the same answers and lazily written reasons): a call with
    tuples of cards, an ``int`` score and a rule set without sequences is read and decided in C; every other
    call (notation, bad arguments, samba, an answer that needs a search) is answered by this function in Python.
    """
    rules, hand, pile, score, stock_empty = (situation.rules, situation.hand, situation.pile, situation.score,
                                             situation.stock_empty)
    melds = list(situation.melds)
    ensure_no_red_three_in_hand(hand)
    ensure_hand_size(rules, hand)
    if _core_decides(rules, melds):
        decided = _decided_take(hand, melds, score, pile, rules, stock_empty)
        if decided is not None:
            return decided
    if not rules.sequences:  # without sequences every search is polynomial: no budget needed
        return _check_take_pile(hand, melds, score, pile, rules, stock_empty)
    with search_budget(f"hand ({len(hand)} cards)"):
        return _check_take_pile(hand, melds, score, pile, rules, stock_empty)


def _core_decides(rules, melds) -> bool:
    """Does the counting core's :func:`counts.flat_take_way` decide this take? Always without sequences; under
    samba's sequences for a team that has opened (the top card goes with a pair or onto a group, as without them;
    the core counts only groups as canastas, so where samba's sequences could let the turn end by going out it
    hands the call on), not for an unopened one (its opening may hold runs: ``most_meld_points`` counts them, on
    the explained path)."""
    return not rules.sequences or bool(melds)


_TakeVerdict_new = tuple.__new__
#: rank -> the distinct cards of that rank (for set tests in C)
_SAME_RANK = {r: frozenset(c for c in ALL_CARDS if c.rank == r) for r in {c.rank for c in ALL_CARDS}}
_RED_THREE_H, _RED_THREE_D = Card("3H"), Card("3D")


def _take_reasons(hand, melds, score, pile, rules, stock_empty):
    """The reasons of a decided verdict (the pure and the compiled one): the explained path's sentences, written on
    top of the counting core's decision (:func:`_core_decides`)."""
    way = _take_way(hand, melds, score, pile, rules, stock_empty)[0] if _core_decides(rules, melds) else None
    return _check_take_pile(hand, melds, score, pile, rules, stock_empty, way).reasons


#: the flat rank tables of the counting core's forms without sequences (counts.py's last section): a natural rank's
#: place (its order 4..14 less 4), its points, the places by points (highest first)
_FLAT_RANK = {r: o - 4 for r, o in SEQUENCE_ORDER.items()}
_FLAT_POINTS = [RANK_POINTS[r] for r, _o in sorted(SEQUENCE_ORDER.items(), key=lambda x: x[1])]
_FLAT_BY_POINTS = sorted(range(len(_FLAT_POINTS)), key=lambda r: -_FLAT_POINTS[r])
_METHOD = {counts.TAKE_PAIR: "pair", counts.TAKE_LAY_OFF: "lay-off", counts.TAKE_NATURAL_AND_WILD: "natural-and-wild"}
_RULE_TABLES: dict = {}   # id(rules) -> (rules, take_rule_flags, caps, ncaps)


def _rule_tables(rules):
    t = _RULE_TABLES.get(id(rules))
    if t is None or t[0] is not rules:
        if len(_RULE_TABLES) >= 32:   # rule sets made on the fly (with_options): keep the dict small
            _RULE_TABLES.clear()
        caps = list(rules._wild_caps)
        t = _RULE_TABLES[id(rules)] = (rules, counts.take_rule_flags(rules), caps, len(caps))
    return t


def _table_canasta(meld, caps, ncaps) -> bool:
    """A canasta on the table as the counting core counts them (``going_out._table_info``): a legal group of seven
    or more cards, its natural cards of one rank."""
    if len(meld) < CANASTA_SIZE:
        return False
    wild = sum(1 for c in meld if c.is_wild)
    if any(not c.is_natural for c in meld if not c.is_wild) or len({c.rank for c in meld if not c.is_wild}) != 1:
        return False
    return counts.flat_legal_group(len(meld) - wild, wild, caps, ncaps)


def _take_way(hand, melds, score, pile, rules, stock_empty):
    """The counting core's decision of :func:`check_take_pile` (rules without sequences): the arguments read into
    counts here, the rule decided by :func:`counts.flat_take_way` (the same function ``_speedups/take.pyx`` calls
    compiled). Returns ``(way, naturals, wild, team index)``: ``way`` a ``counts.TAKE_*`` code, then what the
    verdict's cards are made of (the natural cards of the top card's rank in hand, the cheapest wild card in hand,
    the team's group of that rank). The arguments are a possible situation's, already read (tuples of cards,
    ``melds`` a list, no red three in hand)."""
    np = len(pile)
    if not np:
        return counts.TAKE_EXPLAIN, (), None, None
    top = pile[-1]
    _rules, flags, caps, ncaps = _rule_tables(rules)
    if top.is_wild or top.is_black_three or top.is_red_three:   # stopped: the core reads nothing more
        return counts.flat_take_way(True, np, len(hand), len(melds), stock_empty, 0, 0, 0, False, False, 0, 0, 0,
                                    False, 0, flags, 0, 0, caps, ncaps, None, 0, None, None, None, 0, 0, -1,
                                    0), (), None, None
    pile_bits = _pile_bits(pile)
    red_in_pile = pile.count(_RED_THREE_H) + pile.count(_RED_THREE_D) if pile_bits & counts.PILE_RED_THREE else 0
    rank = top.rank
    same = _SAME_RANK[rank]
    naturals = [c for c in hand if c in same]
    wilds = [c for c in hand if c.is_wild]
    wild = min(wilds, key=_wild_cost) if wilds else None
    # the team's group of the top card's rank: a meld holding a card of that rank (a set test, in C), then
    # confirmed by meld_key (as pile._take_options finds it)
    index = next((i for i, m in enumerate(melds) if not same.isdisjoint(m) and meld_key(m) == (GROUP, rank)), None)
    team_n = team_nat = team_wild = 0
    team_canasta = False
    if index is not None:
        team_meld = melds[index]
        team_n = len(team_meld)
        team_wild = sum(1 for c in team_meld if c.is_wild)
        team_nat = team_n - team_wild
        team_canasta = _table_canasta(team_meld, caps, ncaps)
    pile_kept = np - 1 - red_in_pile
    # the canastas on the table: read only when the turn may end only by going out (the core asks then)
    canastas = (sum(1 for m in melds if _table_canasta(m, caps, ncaps))
                if melds and len(hand) + pile_kept < 4 else 0)
    rank_count = wild_values = None
    minimum = others = 0
    if not melds:   # an unopened team: the hand by rank, its wild cards' points (highest first), its black threes
        rank_count = [0] * len(_FLAT_POINTS)
        for c in hand:
            if c.is_natural:
                rank_count[_FLAT_RANK[c.rank]] += 1
            elif c.is_black_three:
                others += 1
        wild_values = sorted((c.points for c in wilds), reverse=True)
        minimum = rules.opening_minimum(score)
    way = counts.flat_take_way(False, np, len(hand), len(melds), stock_empty, pile_bits, red_in_pile, len(naturals),
                               wild is not None, index is not None, team_n, team_nat, team_wild, team_canasta,
                               canastas, flags, rules.canastas_to_go_out, minimum, caps, ncaps, rank_count,
                               len(_FLAT_POINTS), _FLAT_POINTS, _FLAT_BY_POINTS, wild_values,
                               len(wild_values) if wild_values else 0, others, _FLAT_RANK[rank], top.points)
    return way, naturals, wild, index


def _wild_cost(card: Card):
    """The cheapest wild card first; among equals the first in sort order (``pile._take_options``' order)."""
    return card.points, sort_key(card)


def _decided_take(hand, melds, score, pile, rules, stock_empty) -> TakeVerdict | None:
    """:func:`check_take_pile` (rules without sequences) as the counting core decides it (:func:`_take_way`), the
    verdict's cards made for the way it names and the reasons the explained path's, written when read on top of
    that decision. ``None`` when the core hands the call to the explained path (an empty pile, the one-card house
    rule, a turn that may end only by going out and needs a search)."""
    way, naturals, wild, index = _take_way(hand, melds, score, pile, rules, stock_empty)
    if way == counts.TAKE_EXPLAIN:
        return None
    top = pile[-1]
    reasons = LazyReasons(_take_reasons, hand, melds, score, pile, rules, stock_empty)
    if way == counts.TAKE_NO:
        return _TakeVerdict_new(TakeVerdict, (False, reasons, "", (), (), top))
    team_meld = melds[index] if index is not None else ()
    if way == counts.TAKE_PAIR:
        used = (naturals[0], naturals[1])
        meld = team_meld + (top,) + used
    elif way == counts.TAKE_LAY_OFF:
        used, meld = (), team_meld + (top,)
    else:
        used = (naturals[0], wild)
        meld = (top,) + used
    return _TakeVerdict_new(TakeVerdict, (True, reasons, _METHOD[way], used, meld, top))


def _check_take_pile(hand, melds, score, pile, rules, stock_empty, way: int | None = None) -> TakeVerdict:
    """The explained path of :func:`check_take_pile`. ``way``: the counting core's decision (a ``counts.TAKE_*``
    code, :func:`_take_way`), when it has decided: the sentences are written for the way it names. Without it (the
    calls the core hands here, samba, the tests that hold the core to this path) the path finds its own way, by
    search where the turn may end only by going out."""
    stopped = check_stopped(pile)
    if stopped.ok:
        return TakeVerdict(False, stopped.reasons, top=pile[-1] if pile else None)
    top = pile[-1]
    if rules.one_card_pile_rule and not stock_empty and len(hand) == 1 and len(pile) == 1:
        return TakeVerdict(False, (Reason("one-card-rule", _("With one card in hand you may not take a pile of one "
                                                             "card (house rule).")),), top=top)
    frozen = _frozen(pile, melds, rules)
    opened = bool(melds)
    rank = top.rank
    naturals = [c for c in hand if c.rank == rank and c.is_natural]
    wilds = sorted((c for c in hand if c.is_wild), key=lambda c: c.points)
    team_meld_index = next((i for i, m in enumerate(melds) if meld_key(m) == (GROUP, rank)), None)
    team_meld = melds[team_meld_index] if team_meld_index is not None else None
    pile_rest = [c for c in pile[:-1] if not c.is_red_three]
    need_pair = frozen.ok
    one = _one_of(rank)
    plural = rank_plural(rank)

    # The ways to meld the top card, most natural first.
    options, failures = _take_options(hand, melds, top, need_pair, rules)
    if way in _METHOD:   # the core's way: the sentences for it
        options = [o for o in options if o[0] == _METHOD[way]][:1]

    if not options:
        return TakeVerdict(False, _why_no_option(frozen, need_pair, naturals, wilds, team_meld, top, one, plural,
                                                 rules, failures, opened, melds), top=top)

    # An unopened team must reach its minimum with the top card and cards from hand.
    minimum = 0 if opened else rules.opening_minimum(score)
    reasons_min: list[Reason] = []
    if not opened:
        best = max_meld_points(hand, rules, top=top)
        if best < minimum:
            reasons = list(frozen.reasons) + [explain_minimum(score, rules)]
            reasons.append(Reason("below-minimum", _("Your best first meld with {top} from the pile and the cards in "
                                                     "your hand counts only {best} points; the other pile cards do "
                                                     "not count.").format(top=top, best=best)))
            return TakeVerdict(False, tuple(reasons), top=top)
        reasons_min = [explain_minimum(score, rules),
                       Reason("reaches-minimum", _("With {top} from the pile and cards from your hand you can meld "
                                                   "up to {best} points, enough for the minimum.").format(
                                                       top=top, best=best))]

    # The turn must be completable after taking.
    last_problems: list[Reason] = []
    for method, used, meld, melds_after in options:
        hand_left = list(hand)
        for c in used:
            hand_left.remove(c)
        if opened:
            ok, extra = _finishable(hand_left, pile_rest, melds_after, rules)
        else:
            ok, extra = _finish_unopened(hand, top, pile_rest, minimum, rules)
        if ok:
            return TakeVerdict(True, _why_yes(method, used, meld, top, frozen, team_meld, rules, reasons_min, extra,
                                              melds_after if opened else []),
                               method=method, cards=used, meld=meld, top=top)
        last_problems = extra or []
    reasons = [Reason("cannot-finish", _("You could meld {top}, but you could not then finish your turn: you would "
                                         "be left without a card to keep after your discard, and you could not go "
                                         "out.").format(top=top))]
    return TakeVerdict(False, tuple(reasons + [p for p in last_problems if p.code != "places-every-card"]), top=top)


def _replace(melds, index, new):
    out = list(melds)
    out[index] = new
    return out


def _finish_unopened(hand, top, pile_rest, minimum, rules):
    """An unopened team: is there an opening of ``minimum`` points that leaves a turn to finish?"""
    keep = 2 - len(pile_rest)
    if keep <= 0:
        return True, None
    # Leave ``keep`` cards of the hand unmelded (to discard and keep one), and still reach the minimum: counted
    # (issue 19: no search of which cards to keep).
    if most_meld_points(hand, rules, top=top, keep=keep) >= minimum:
        return True, None
    # Otherwise the player must go out this turn, melding everything.
    cards = list(hand) + [top] + list(pile_rest)
    plan, problems = find_go_out(cards, [], rules, minimum=minimum, uncounted=pile_rest)
    if plan is not None:
        return True, plan
    return False, problems


def _why_no_option(frozen, need_pair, naturals, wilds, team_meld, top, one, plural, rules, failures, opened, melds):
    reasons = list(frozen.reasons) if frozen.ok else []
    # Translators: the clauses below are the parts of one list ("you could take it A, B or C; but X, and Y").
    held = (_("you hold only {cards}").format(cards=format_cards(naturals)) if naturals
            else _("you hold no natural {rank}").format(rank=one))
    if need_pair:
        reasons.append(Reason("need-natural-pair",
                              _("So you need two natural {ranks} in your hand to take it; {held}.").format(
                                  ranks=plural, held=held)))
    else:
        ways = [_("with two natural {ranks}").format(ranks=plural)]
        if rules.take_with_natural_and_wild:
            ways.append(_("with one natural {rank} and a wild card").format(rank=one))
        if rules.sequences:
            way = (_("by laying {top} off on your team's group of {ranks}") if rules.take_onto_canasta
                   else _("by laying {top} off on your team's unfinished group of {ranks}"))
        else:
            way = (_("by laying {top} off on your team's meld of {ranks}") if rules.take_onto_canasta
                   else _("by laying {top} off on your team's unfinished meld of {ranks}"))
        ways.append(way.format(top=top, ranks=plural))
        if rules.take_with_natural_and_wild and naturals and not wilds:
            held = _("{held} and no wild card").format(held=held)
        if team_meld is None:
            no_meld = (_("{held}, and your team has no group of {ranks}") if rules.sequences
                       else _("{held}, and your team has no meld of {ranks}"))
            held = no_meld.format(held=held, ranks=plural)
        reasons.append(Reason("no-way-to-meld-top", _("The pile is not frozen for your team, so you could take it "
                                                      "{ways}; but {held}.").format(ways=join_words(ways, "or"),
                                                                                    held=held)))
        seq = _sequence_for(top, melds, rules)
        if seq is not None and team_meld is None:
            reasons.append(Reason("top-not-on-sequence", _("The top card cannot go onto a sequence: {top} may not be "
                                                           "laid off on {sequence} to take the pile, only on a "
                                                           "group.").format(top=top, sequence=format_cards(seq))))
    reasons.extend(failures)
    return tuple(reasons)


def _sequence_for(top, melds, rules):
    """Samba: the team's sequence in the top card's suit, if any (the top card may never go onto one)."""
    if not rules.sequences or not top.is_natural:
        return None
    from .cards import SEQUENCE_ORDER

    value = SEQUENCE_ORDER.get(top.rank)
    for m in melds:
        if meld_key(m) == ("sequence", top.suit):
            order = [SEQUENCE_ORDER.get(c.rank) for c in m]  # a three or a wild card has no place in a run
            if None not in order and value in (min(order) - 1, max(order) + 1):
                return m
    return None


def _why_yes(method, used, meld, top, frozen, team_meld, rules, reasons_min, plan, melds):
    reasons = []
    if method == "pair":
        fields = {"ranks": rank_plural(top.rank), "cards": format_cards(used), "top": top}
        if team_meld is not None:
            reasons.append(Reason("take-with-pair", _("You hold two natural {ranks} ({cards}), and {top} with them "
                                                      "goes on your meld {target}.").format(
                                                          target=format_cards(team_meld), **fields)))
        else:
            reasons.append(Reason("take-with-pair", _("You hold two natural {ranks} ({cards}) to meld with {top}: "
                                                      "{target}.").format(target=format_cards(meld), **fields)))
    elif method == "natural-and-wild":
        reasons.append(Reason("take-with-natural-and-wild", _("The pile is not frozen for your team, so one natural "
                                                              "{rank} and a wild card ({cards}) can meld with "
                                                              "{top}.").format(rank=_one_of(top.rank),
                                                                               cards=format_cards(used), top=top)))
    else:
        reasons.append(Reason("take-lay-off", _("The pile is not frozen for your team and {top} can be laid off on "
                                                "your meld {target}.").format(top=top, target=format_cards(team_meld))))
    if frozen.ok:
        reasons.extend(frozen.reasons)
    reasons.extend(reasons_min)
    if plan is not None:
        steps = plan.describe(melds)
        need = rules.canastas_to_go_out
        canastas = (ngettext("your team then has {count} canasta", "your team then has {count} canastas",
                             plan.canastas).format(count=number_word(plan.canastas)) if plan.canastas
                    else _("your team then has no canasta"))
        canastas = ngettext("{canastas}, and {need} is needed", "{canastas}, and {need} are needed", need).format(
            canastas=canastas, need=number_word(need))
        if steps:
            text = _("After taking, you go out ({steps}); {canastas}.").format(steps=", ".join(steps),
                                                                              canastas=canastas)
        else:
            text = _("After taking, you have no card left, so you go out; {canastas}.").format(canastas=canastas)
        reasons.append(Reason("goes-out", text))
    return tuple(reasons)


@takes_situation("pile", "melds", "rules")
def is_frozen(situation: Situation) -> bool:
    """Is the pile frozen for this team? (:func:`check_frozen` without the reasons.)"""
    return _frozen(situation.pile, list(situation.melds), situation.rules).ok


__all__ = ["TakeVerdict", "check_frozen", "check_stopped", "check_take_pile", "check_shown_cards",
           "frozen_for_everyone", "is_frozen", "ranks_taken_onto"]


@takes_situation("hand", "melds", "score", "pile", "shown", "rules", extras=("shown",))
def check_shown_cards(situation: Situation, *, shown=()) -> Verdict:
    """Are ``shown`` the right cards from ``hand`` to show with the top card when taking the pile?

    A team that has opened shows exactly the cards of one legal way: a natural
    pair, one natural card and a wild card, or none (the top card goes on a
    team meld). A team that has not opened shows a natural pair and whatever
    else it melds for its opening: all the cards shown, with the top card, must
    form legal melds that reach the minimum.

    Takes a :class:`Situation` and ``shown=``, or the old
    ``check_shown_cards(hand, melds=(), score=0, pile=(), shown=(), rules=CLASSIC)``.
    """
    rules, hand, pile, score = situation.rules, situation.hand, situation.pile, situation.score
    melds = list(situation.melds)
    shown = as_cards(shown)
    missing = Counter(shown) - Counter(hand)
    if missing:
        return Verdict(False, (Reason("not-in-hand", _("You do not hold {cards}.").format(
            cards=format_cards(missing.elements()))),))
    take = check_take_pile(situation.replace(stock_empty=False))
    if not take.ok:
        return Verdict(False, (Reason("cannot-take", _("You may not take this pile at all, whatever you show.")),)
                       + take.reasons)
    top = pile[-1]
    pair = [c for c in shown if c.rank == top.rank and c.is_natural]
    frozen = _frozen(pile, melds, rules)
    if frozen.ok and len(pair) < 2:
        return Verdict(False, (Reason("need-natural-pair", _("The pile is frozen for your team: you must show two "
                                                             "natural {ranks} from your hand.").format(
                                                                 ranks=rank_plural(top.rank))),))
    if melds:
        ways = _take_options(hand, melds, top, frozen.ok, rules)
        naturals = [c for c in shown if c.is_natural and c.rank == top.rank]
        wild = [c for c in shown if c.is_wild]
        pattern = ("lay-off" if not shown else
                   "pair" if len(shown) == 2 and len(naturals) == 2 else
                   "natural-and-wild" if len(shown) == 2 and len(naturals) == 1 and len(wild) == 1 else "")
        ways, _failures = ways
        for method, _used, meld, _after in ways:
            if method == pattern:
                what = (_("{top} goes on your meld {target}.").format(top=top, target=format_cards(meld[:-1]))
                        if method == "lay-off" else
                        _("{cards} with {top} make a meld.").format(cards=format_cards(shown), top=top))
                return Verdict(True, (Reason("shown-ok", what[0].upper() + what[1:]),))
        options = _("; or ").join((_("no card: lay it off on your meld") if not used else format_cards(used))
                                  for _method, used, _meld, _after in ways)
        return Verdict(False, (Reason("shown-wrong", _("Show only the cards that meld with {top}: {options}.").format(
            top=top, options=options)),))
    if any(c.is_black_three or c.is_red_three for c in shown):
        return Verdict(False, (Reason("threes", _("Threes cannot be part of an opening meld here.")),))
    minimum = rules.opening_minimum(score)
    plan, problems = find_go_out(list(shown) + [top], [], rules, need=0, allow_discard=False, minimum=minimum)
    if plan is None:
        lead = Reason("shown-not-enough", _("With {top}, the cards you show must all go into legal melds worth at "
                                            "least {minimum} points.").format(top=top, minimum=minimum))
        return Verdict(False, (lead,) + tuple(problems))
    melded = _(" and ").join(format_cards(m) for m in plan.new_melds)
    points = card_points(shown) + top.points
    return Verdict(True, (Reason("shown-ok", _("{melds}: {points} points, enough for your first meld "
                                               "({minimum}).").format(melds=melded, points=points,
                                                                       minimum=minimum)),))


def _fits(meld: tuple[Card, ...], cards: tuple[Card, ...], rules: RuleSet) -> bool:
    """Can ``cards`` go on ``meld`` (a legal meld on the table)? The fast judgement, no sentences."""
    facts = meld_facts(meld, rules, copies_checked=True)
    if facts is None or facts[2] == SAMBA:  # a samba is closed
        return False
    return meld_facts(meld + cards, rules, copies_checked=True) is not None


def _take_options(hand, melds, top, frozen: bool, rules: RuleSet):
    """The ways to meld the top card, most natural first, and why the others fail.

    Returns ``(options, failures)``; each option is ``(method, cards from hand, the meld
    the top card ends up in, the team's melds afterwards)``.
    """
    rank = top.rank
    same = _SAME_RANK[rank]
    naturals = [c for c in hand if c in same] if top.is_natural else []
    # the team's group of the top card's rank: a meld holding a card of that rank (a set test, in C), then
    # confirmed by meld_key (a sequence of samba holds one card of many ranks)
    index = next((i for i, m in enumerate(melds) if not same.isdisjoint(m) and meld_key(m) == (GROUP, rank)), None)
    team_meld = melds[index] if index is not None else None
    options: list = []
    failures: list[Reason] = []
    if len(naturals) >= 2:
        pair = tuple(naturals[:2])
        if team_meld is None:
            new = (top,) + pair
            options.append(("pair", pair, new, list(melds) + [new]))
        elif _fits(team_meld, (top,) + pair, rules):
            grown = team_meld + (top,) + pair
            options.append(("pair", pair, grown, _replace(melds, index, grown)))
        else:
            failures.extend(check_add_to_meld(team_meld, (top,) + pair, rules).reasons)
    if not frozen:
        if team_meld is not None:
            closed = not rules.take_onto_canasta and check_meld(team_meld, rules).canasta != NONE
            if closed:
                failures.append(Reason("canasta-closed-for-pile", _("Under these rules the top card may not be laid "
                                                                    "off on a finished canasta ({target}).").format(
                                                                        target=format_cards(team_meld))))
            elif _fits(team_meld, (top,), rules):
                grown = team_meld + (top,)
                options.append(("lay-off", (), grown, _replace(melds, index, grown)))
            else:
                failures.extend(check_add_to_meld(team_meld, (top,), rules).reasons)
        elif rules.take_with_natural_and_wild and naturals:
            # cheapest wild card first; among equals the first in sort order (a set's order would vary by run)
            for wild in sorted({c for c in hand if c.is_wild}, key=lambda c: (c.points, sort_key(c))):
                new = (top, naturals[0], wild)
                if check_meld(new, rules).ok:
                    options.append(("natural-and-wild", (naturals[0], wild), new, list(melds) + [new]))
    return options, failures


# --- the compiled twin (_speedups/take.pyx), where built: it answers the common call in C and hands every other to
# the pure-Python check_take_pile above (speedups.pure_twin gives it back)
check_take_pile = speedups.compiled("take", check_take_pile, verdict_type=TakeVerdict, explained=_check_take_pile,
                                    reasons=_take_reasons)
