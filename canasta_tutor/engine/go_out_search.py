"""Placing every card of a hand: the exact search behind going out (:func:`find_go_out`).

For every possible final discard (or none) it places every natural card (laid off on the team's meld of its rank,
or in a new meld, or under ``samba`` in a sequence), then tries every way to spread the wild cards over the melds
within the wild-card limit, looking for the placement that gives the team the canastas it needs. A dynamic
programme over the melds (state: wild cards used so far) makes that cheap. :mod:`~canasta_tutor.engine.going_out`
asks it whether a player may go out; taking the pile asks it whether the turn can be finished.

>>> plan, problems = find_go_out("KH KS 2C 9D", melds=["7H 7S 7D 7C 7H 7S 7D"])
>>> plan.describe(as_groups(["7H 7S 7D 7C 7H 7S 7D"]))
['meld K♥ K♠ 2♣', 'discard 9♦']
>>> find_go_out("KH 9S 9D 5C", melds=["7H 7S 7D 7C 7H 7S 7D"])[1][0].code
'lone-card'
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from operator import attrgetter

from .cards import ALL_CARDS, NATURAL_RANKS, SEQUENCE_ORDER, SORT_KEY, Card, card_points, format_cards, rank_plural
from .counts import place_every_card
from .i18n import gettext as _
from .i18n import ngettext
from .melds import BLACK_THREES, CANASTA_SIZE, GROUP, NONE, SEQUENCE, SEQUENCE_MAX, as_cards, as_groups, meld_facts
from .numbers import join_words, number_word
from .rules import CLASSIC, RuleSet, get_rules
from .situation import SearchTooLarge, ensure_hand_size, search_budget, spend
from .verdict import Reason

_meld_rank = attrgetter("meld_rank")


@dataclass(frozen=True)
class GoOutPlan:
    """How to go out: the ``discard`` (or ``None``), what goes on each existing meld
    (``lay_offs``: meld index -> cards), the ``new_melds`` and the team's canastas afterwards."""

    discard: Card | None
    lay_offs: tuple[tuple[int, tuple[Card, ...]], ...]
    new_melds: tuple[tuple[Card, ...], ...]
    canastas: int
    swaps: tuple[tuple[int, Card, Card], ...] = ()   # (meld index, natural card put in, wild card taken out)

    def with_discard(self, discard: Card | None) -> GoOutPlan:
        """The same plan with ``discard`` as the last card (made without the frozen ``__init__``: the search
        makes one per way out it finds)."""
        plan = object.__new__(GoOutPlan)
        plan.__dict__.update(self.__dict__, discard=discard)
        return plan

    def describe(self, melds) -> list[str]:
        out = []
        for idx, natural, wild in self.swaps:
            swap = (_("swap {card} for the joker in {target}") if wild.rank == "JK"
                    else _("swap {card} for {wild} in {target}"))
            out.append(swap.format(card=natural, wild=wild, target=format_cards(melds[idx])))
        for idx, cards in self.lay_offs:
            out.append(_("lay off {cards} on {target}").format(cards=format_cards(cards),
                                                               target=format_cards(melds[idx])))
        for meld in self.new_melds:
            out.append(_("meld {cards}").format(cards=format_cards(meld)))
        if self.discard is not None:
            out.append(_("discard {card}").format(card=self.discard))
        return out



@dataclass
class _Slot:
    """A meld that may receive wild cards: existing or new."""

    index: int            # index of the existing meld, or -1 for a new one
    rank: str
    naturals: tuple       # natural cards added this turn
    base_nat: int         # natural cards already on the table
    base_wild: int
    min_wild: int
    cap: int              # wild cards it may still take
    base_size: int
    swap: int = 0         # wild cards a swap may take out of it (samba, 004 rule 4)
    wild_cards: tuple = ()  # the wild cards it holds on the table (what a swap takes out)


def _table_info(melds, rules):
    """Read the team's melds: groups by rank and sequences by suit."""
    groups: dict[str, int] = {}
    sequences: list[tuple[int, str, int, int]] = []   # (index, suit, low, high)
    canastas = 0
    for i, meld in enumerate(melds):
        facts = meld_facts(meld, rules, True, copies_checked=True)
        if facts is None:
            continue
        kind, rank, canasta, _points = facts
        if canasta != NONE:
            canastas += 1
        if kind == SEQUENCE:
            order = [SEQUENCE_ORDER[c.rank] for c in meld]
            sequences.append((i, rank, min(order), max(order)))
        elif kind in (GROUP, BLACK_THREES) and rank:
            groups[rank] = i
    return groups, sequences, canastas


def _wild_dp(slots: list[_Slot], n_wild: int, base_canastas: int, rules):
    """Spread exactly ``n_wild`` wild cards over the slots; return (max canastas, wilds per slot) or None."""
    # dp maps wilds used -> (canastas, choices); a negative choice is a swap (a wild card taken out)
    dp = {0: (0, ())}
    freed_later = sum(s.swap for s in slots) if rules.wild_swap else 0
    for slot in slots:
        freed_later -= slot.swap
        nxt: dict[int, tuple[int, tuple]] = {}
        for used, (cans, choice) in dp.items():
            for w in range(slot.min_wild - slot.swap, slot.cap + 1):
                total = used + w
                if total > n_wild + freed_later:
                    break
                size = slot.base_size + len(slot.naturals) + w
                c = cans + (1 if size >= CANASTA_SIZE and slot.rank != "3" and slot.base_size < CANASTA_SIZE else 0)
                best = nxt.get(total)
                if best is None or c > best[0]:
                    nxt[total] = (c, choice + (w,))
        dp = nxt
        if not dp:
            return None
    got = dp.get(n_wild)
    if got is None:
        return None
    return base_canastas + got[0], got[1]


def _place_groups(naturals: list[Card], black: list[Card], wilds: list[Card], melds, groups, base_canastas,
                  rules, extra_slots=(), *, explain: bool = True):
    """Place the naturals in groups and spread the wild cards; returns (problems, plan-parts). ``explain=False``:
    the first problem ends the search, as a :data:`QUIET` placeholder."""
    problems: list[Reason] = []
    by_rank: dict[str, list[Card]] = {}
    for c in naturals:
        by_rank.setdefault(c.rank, []).append(c)
    slots: list[_Slot] = list(extra_slots)
    for rank, idx in groups.items():
        # every group on the table may take wild cards, whether or not naturals go on it too
        cards = by_rank.pop(rank, [])
        meld = melds[idx]
        wild = list(map(_meld_rank, meld)).count("*")
        nat = len(meld) - wild
        # a meld of black threes takes no more cards (three or four black threes, or two with one wild card)
        cap = 0 if rank == "3" else rules.wild_capacity(nat + len(cards)) - wild
        swap = min(len(cards), wild) if rules.wild_swap and len(meld) < CANASTA_SIZE else 0
        if cards or cap > 0:
            slots.append(_Slot(idx, rank, tuple(cards), nat, wild, 0, max(0, cap), len(meld), swap,
                               tuple(c for c in meld if c.is_wild) if swap else ()))
    for rank, cards in by_rank.items():
        if len(cards) == 1:
            if not explain:
                return [QUIET["lone-card"]], None
            problems.append(lone_card_reason(cards[0], rules))
        else:
            slots.append(_Slot(-1, rank, tuple(cards), 0, 0, 1 if len(cards) == 2 else 0,
                               rules.wild_capacity(len(cards)), 0))
    if black:
        problem = _add_black_threes(black, slots, rules, explain)
        if problem is not None:
            problems.append(problem)
    if problems:
        return problems, None
    dp = _wild_dp(slots, len(wilds), base_canastas, rules)
    if dp is None:
        return [_wild_cards_problem(slots, wilds) if explain else QUIET["wild-short"]], None
    canastas, choice = dp
    return [], (slots, choice, canastas)


def lone_card_reason(card: Card, rules) -> Reason:
    """``lone-card``: ``card`` (a natural card) has no partner in hand and no meld of its rank to go on."""
    lone = (_("{card} has no partner in your hand and your team has no meld of {ranks} to lay it off on (and "
              "it does not fit in a sequence).") if rules.sequences else
            _("{card} has no partner in your hand and your team has no meld of {ranks} to lay it off on."))
    return Reason("lone-card", lone.format(card=card, ranks=rank_plural(card.rank)))


def black_threes_problem(black: list[Card], rules) -> Reason:
    """``black-threes``: these black threes make no meld when going out."""
    text = (_("Black threes ({cards}) can only be melded three or four together, or two with a wild card, when "
              "going out.") if rules.black_threes_with_wild else
            _("Black threes ({cards}) can only be melded three or four together, when going out."))
    return Reason("black-threes", text.format(cards=format_cards(black)))


def _add_black_threes(black: list[Card], slots: list[_Slot], rules, explain: bool = True) -> Reason | None:
    """Add the slot of a meld of the hand's black threes, or say why they make none."""
    b = len(black)
    if b in (3, 4):
        slots.append(_Slot(-1, "3", tuple(black), 0, 0, 0, 0, 0))
    elif b == 2 and rules.black_threes_with_wild:
        slots.append(_Slot(-1, "3", tuple(black), 0, 0, 1, 1, 0))
    else:
        return black_threes_problem(black, rules) if explain else QUIET["black-threes"]
    return None


#: The problems of a search that writes no sentence (``explain=False``): the codes alone, for the comparisons.
QUIET = {code: Reason(code, "") for code in ("red-three-in-hand", "canastas-short", "lone-card", "black-threes",
                                             "wild-short")}


def _wild_cards_problem(slots: list[_Slot], wilds: list[Card]) -> Reason:
    """Why the wild cards cannot be spread over the slots: too few for the pairs, or too many for the room."""
    need = sum(s.min_wild for s in slots)
    room = sum(s.cap for s in slots)
    if len(wilds) < need:
        pairs = [s for s in slots if s.min_wild]
        which = join_words(format_cards(s.naturals) for s in pairs)
        # Translators: {need} and {held} are sentence halves joined by "{need}; {held}."
        what = (_("Your pair {pairs} needs a wild card to become a meld").format(pairs=which) if len(pairs) == 1 else
                ngettext("Your pairs {pairs} need {count} wild card to become melds",
                         "Your pairs {pairs} need {count} wild cards to become melds", need).format(
                             pairs=which, count=number_word(need)))
        held = (ngettext("you hold only {count} wild card", "you hold only {count} wild cards", len(wilds)).format(
            count=number_word(len(wilds))) if wilds else _("you hold no wild card"))
        return Reason("wild-short", _("{need}; {held}.").format(need=what, held=held))
    fit = (ngettext("Your wild cards ({cards}) do not all fit: the melds can take only {count} more wild card within "
                    "the limit.",
                    "Your wild cards ({cards}) do not all fit: the melds can take only {count} more wild cards within "
                    "the limit.", room) if room else
           _("Your wild cards ({cards}) do not all fit: no meld can take another wild card within the limit."))
    return Reason("wild-no-room", fit.format(cards=format_cards(wilds), count=number_word(room)))


def _sequence_options(cards: list[Card], sequences, rules):
    """Ways to put some of these natural cards into sequences (new or extending), per suit.

    Yields (cards used, lay-offs {index: cards}, new sequences, sambas made), one per distinct set of cards
    used (the arrangement with the most sambas), so that the group search runs once per set of leftovers.
    """
    by_suit: dict[str, list[Card]] = {}
    for c in cards:
        by_suit.setdefault(c.suit, []).append(c)
    # combine the suits one by one, keeping one arrangement per multiset of cards used so far
    states: dict[tuple, tuple] = {(): ([], {}, [], 0)}
    for suit, suit_cards in by_suit.items():
        existing = [s for s in sequences if s[1] == suit]
        options: dict[tuple, tuple] = {}
        for u, lo, nw, sm in _suit_options(suit_cards, existing):
            key = tuple(sorted(c.code for c in u))
            if key not in options or options[key][3] < sm:
                options[key] = (u, lo, nw, sm)
        nxt: dict[tuple, tuple] = {}
        for key, (used, lay, new, sambas) in states.items():
            for okey, (u, lo, nw, sm) in options.items():
                spend()
                k2 = key + okey
                if k2 not in nxt or nxt[k2][3] < sambas + sm:
                    nxt[k2] = (used + u, {**lay, **lo}, new + nw, sambas + sm)
        states = nxt
    for used, lay, new, sambas in states.values():
        yield used, lay, new, sambas


def _suit_options(cards: list[Card], existing):
    avail = Counter(SEQUENCE_ORDER[c.rank] for c in cards)
    pick = {}
    for c in cards:
        pick.setdefault(SEQUENCE_ORDER[c.rank], []).append(c)

    def take(order_values, counter):
        counter = counter.copy()
        out = []
        for v in order_values:
            if counter[v] <= 0:
                return None, None
            counter[v] -= 1
        return counter, out

    def extend(i, counter):
        if i == len(existing):
            yield from new_runs(counter, 4, [], [])
            return
        idx, _suit, lo, hi = existing[i]
        length = hi - lo + 1
        for down in range(0, SEQUENCE_MAX - length + 1):
            if down and (lo - down < 4 or counter[lo - down] <= 0):
                break
            for up in range(0, SEQUENCE_MAX - length - down + 1):
                if up and (hi + up > 14 or counter[hi + up] <= 0):
                    break
                vals = list(range(lo - down, lo)) + list(range(hi + 1, hi + up + 1))
                rest, _ = take(vals, counter)
                if rest is None:
                    continue
                samba = 1 if length < SEQUENCE_MAX and length + down + up == SEQUENCE_MAX else 0
                for used, lay, new, sm in extend(i + 1, rest):
                    lay2 = dict(lay)
                    if vals:
                        lay2[idx] = tuple(vals)
                    yield used + vals, lay2, new, sm + samba

    def new_runs(counter, start, acc_used, acc_new):
        yield list(acc_used), {}, list(acc_new), sum(1 for r in acc_new if len(r) == SEQUENCE_MAX)
        for s in range(start, 13):
            if counter[s] <= 0:
                continue
            for length in range(3, SEQUENCE_MAX + 1):
                if s + length - 1 > 14:
                    break
                vals = list(range(s, s + length))
                rest, _ = take(vals, counter)
                if rest is None:
                    break
                yield from new_runs(rest, s, acc_used + vals, acc_new + [tuple(vals)])

    seen = set()
    for used, lay, new, sambas in extend(0, avail):
        spend()
        key = (tuple(sorted(used)), tuple(sorted(lay.items())), tuple(sorted(new)))
        if key in seen:
            continue
        seen.add(key)
        # turn order values back into the player's actual cards
        pool = {v: list(cs) for v, cs in pick.items()}
        used_cards = [pool[v].pop() for v in used]
        lay_cards = {i: tuple(_find(cards, v) for v in vals) for i, vals in lay.items()}
        new_cards = [tuple(_find(cards, v) for v in run) for run in new]
        yield used_cards, lay_cards, new_cards, sambas


def _find(cards, order_value):
    for c in cards:
        if SEQUENCE_ORDER[c.rank] == order_value:
            return c
    raise AssertionError


def _canastas_short(canastas: int, need: int) -> Reason:
    has = (ngettext("Your team would then have {count} canasta", "Your team would then have {count} canastas",
                    canastas).format(count=number_word(canastas)) if canastas
           else _("Your team would then have no canasta"))
    return Reason("canastas-short", ngettext("{has}; it needs {need} to go out.", "{has}; it needs {need} to go out.",
                                             need).format(has=has, need=number_word(need)))


def _try_place(cards: list[Card], melds, info, rules, need: int, seq_options=None, explain: bool = True):
    """Place every card; return (problems, plan) for the best placement (a plan that places every card but
    leaves the team short of canastas comes with the problem ``canastas-short`` and ``plan.canastas < need``).
    ``explain=False``: the problems are :data:`QUIET` placeholders (the codes only, no sentence written)."""
    groups, sequences, base = info
    red = [c for c in cards if c.is_red_three]
    if red:
        if not explain:
            return [QUIET["red-three-in-hand"]], None
        return [Reason("red-three-in-hand", _("{cards} cannot be melded.").format(cards=format_cards(red)))], None
    naturals = [c for c in cards if c.is_natural]
    black = [c for c in cards if c.is_black_three]
    wilds = [c for c in cards if c.is_wild]
    best_problems = None
    near = None
    if not rules.sequences:
        options = [([], {}, [], 0)]
    elif seq_options is None:
        options = _sequence_options(naturals, sequences, rules)
    else:  # the arrangements found for a larger hand that use only cards of this one (the caller chose them)
        options = seq_options
    for used, seq_lay, seq_new, sambas in options:
        spend()
        rest = list(naturals)
        for c in used:
            rest.remove(c)
        problems, parts = _place_groups(rest, black, wilds, melds, groups, base + sambas, rules, explain=explain)
        if parts is not None:
            slots, choice, canastas = parts
            plan = _build_plan(None, slots, choice, wilds, seq_lay, seq_new, canastas)
            if canastas >= need:
                return [], plan
            if near is None or canastas > near.canastas:
                near = plan
            problems = [_canastas_short(canastas, need) if explain else QUIET["canastas-short"]]
        if best_problems is None or _weight(problems) < _weight(best_problems):
            best_problems = problems
    if near is not None and best_problems and best_problems[0].code == "canastas-short":
        return [_canastas_short(near.canastas, need) if explain else QUIET["canastas-short"]], near
    return best_problems or [], None


def _build_plan(discard, slots, choice, wilds, seq_lay, seq_new, canastas) -> GoOutPlan:
    swaps = []
    pool = sorted(wilds, key=SORT_KEY)
    for slot, w in zip(slots, choice):
        if w < 0:  # swaps first: the wild cards taken out join the hand's
            for natural, wild in zip(slot.naturals, slot.wild_cards[:-w]):
                swaps.append((slot.index, natural, wild))
                pool.append(wild)
    wild_iter = iter(pool)
    lay_offs: dict[int, list] = {i: list(c) for i, c in seq_lay.items()}
    new = [tuple(run) for run in seq_new]
    for slot, w in zip(slots, choice):
        add = list(slot.naturals[-w:] if w < 0 else slot.naturals)
        if w > 0:
            add += [next(wild_iter) for _ in range(w)]
        if slot.index >= 0:
            lay_offs.setdefault(slot.index, []).extend(add)
        else:
            new.append(tuple(add))
    return GoOutPlan(discard, tuple((i, tuple(c)) for i, c in sorted(lay_offs.items()) if c), tuple(new), canastas,
                     tuple(swaps))


def find_go_out(hand, melds=(), rules: RuleSet | str = CLASSIC, *, need: int | None = None,
                allow_discard: bool = True, minimum: int = 0, uncounted=(), counted: GoOutPlan | None = None,
                known: bool = False, discards: int = 0, explain: bool = True):
    """Search for a way to place every card of ``hand`` (one may be discarded).

    Returns ``(plan, problems)``: a :class:`GoOutPlan` or ``None`` with the
    reasons of the closest failed attempt. ``minimum``: card points the melded
    cards must reach (an unopened team that must meet its opening minimum);
    ``uncounted``: cards of ``hand`` that do not count towards it (the pile
    cards under the top card, when taking the pile): one of them may still be
    the discard. ``counted``: the counting core's plan, when already found, and
    ``known``: the core's answer is known (``counted``, ``None`` for no way):
    under sequences it is not found again when the search gives up. ``discards``: the kinds of last discard with
    which the counting core goes out (:func:`~canasta_tutor.engine.counts.flat_go_out_discards`' bits, rules without
    sequences): only those are tried, in the same order, so the plan is the one the whole search finds first.
    ``explain=False``: only the plan is wanted (the game's move, a verdict's plan): no sentence is written, and a
    no comes without reasons (the search stops at the first problem of each arrangement).
    The situation must be a possible one (the public checks make sure of that
    first); the search does not count copies again.
    """
    rules = get_rules(rules)
    hand = list(as_cards(hand))
    melds = as_groups(melds)
    ensure_hand_size(rules, hand)
    if not rules.sequences:  # without sequences the search is polynomial: no budget needed
        return _find_go_out(hand, melds, rules, need, allow_discard, minimum, uncounted, discards, explain)
    if minimum:
        with search_budget(f"hand ({len(hand)} cards)"):
            return _find_go_out(hand, melds, rules, need, allow_discard, minimum, uncounted, 0, explain)
    # Under sequences: the search within a small budget (its plan and reasons, as before issue 19); a hand too
    # big for it is decided by the counting core (issue 19: any hand, no refusal). tests/test_counts.py holds the
    # two to the same answers.
    need = rules.canastas_to_go_out if need is None else need
    try:
        with search_budget(f"hand ({len(hand)} cards)", PLAN_SEARCH_LIMIT):
            return _find_go_out(hand, melds, rules, need, allow_discard, minimum, uncounted, 0, explain)
    except SearchTooLarge:
        pass
    if counted is None and not known:
        counted = counted_go_out(hand, melds, rules, need, allow_discard)
    if counted is not None:
        return counted, []
    return None, [no_placement()]


def no_placement() -> Reason:
    """The reason of a no the search could not explain within its budget (the counting core's answer)."""
    return Reason("no-placement", _("There is no way to meld or lay off every card of this hand (one may be the last "
                                    "discard) that gives your team the canastas it needs."))


#: The search work a plan under sequences may take before the counting core's own plan is used instead.
PLAN_SEARCH_LIMIT = 3000


def counted_go_out(hand, melds, rules, need: int, allow_discard: bool = True, minimum: int = 0) -> GoOutPlan | None:
    """The counting core's way out (:func:`~canasta_tutor.engine.counts.place_every_card`) as a plan, or
    ``None``. ``minimum``: the points the melded cards must reach (going out concealed under an opening minimum)."""
    groups_at, sequences, base = _table_info(melds, rules)
    groups = {}
    for rank, idx in groups_at.items():
        if rank not in SEQUENCE_ORDER:
            continue
        meld = melds[idx]
        wild = tuple(c for c in meld if c.is_wild)
        groups[SEQUENCE_ORDER[rank]] = (idx, len(meld) - len(wild), wild, len(meld))
    parts = place_every_card(hand, groups, sequences, base, rules, need, allow_discard=allow_discard,
                             minimum=minimum)
    if parts is None:
        return None
    discard, lay_offs, new, swaps, canastas = parts
    return GoOutPlan(discard, tuple((i, tuple(c)) for i, c in sorted(lay_offs.items()) if c), tuple(new), canastas,
                     tuple(swaps))


#: A last discard's bit in :func:`~canasta_tutor.engine.counts.flat_go_out_discards`' answer (``None``: no discard).
DISCARD_BITS = {None: 1 << (len(NATURAL_RANKS) + 2)}
DISCARD_BITS.update((c, 1 << (NATURAL_RANKS.index(c.rank) if c.is_natural else len(NATURAL_RANKS) if c.is_wild
                              else len(NATURAL_RANKS) + 1))
                    for c in ALL_CARDS if not c.is_red_three)


def _find_go_out(hand, melds, rules, need, allow_discard, minimum, uncounted, discards: int = 0,
                 explain: bool = True):
    need = rules.canastas_to_go_out if need is None else need
    info = _table_info(melds, rules)
    best = None
    candidates: list[Card | None] = [None]
    if allow_discard:
        candidates += sorted(set(hand), key=SORT_KEY)
    if discards:   # the kinds of last discard the core names (a yes): those tried before them fail, so the first plan
        # found is the same
        candidates = [c for c in candidates if DISCARD_BITS.get(c, 0) & discards]
    near = None
    seq_all = seq_options = None
    if rules.sequences and allow_discard:
        # the arrangements of sequences for the whole hand, once: each discard keeps those that leave it out (those
        # using fewer copies of the discarded card than the hand holds), in the same order
        naturals = [c for c in hand if c.is_natural]
        seq_options = list(_sequence_options(naturals, info[1], rules))
        seq_all = [(Counter(o[0]), o) for o in seq_options]
        held = Counter(naturals)
    for discard in candidates:
        rest = list(hand)
        if discard is not None:
            rest.remove(discard)
        counted = card_points(rest) if minimum else 0
        if minimum and uncounted:
            left_out = list(uncounted)
            if discard is not None and discard in left_out:
                left_out.remove(discard)   # the discard is the pile's copy: it counts neither way
            counted -= card_points(left_out)
        if minimum and counted < minimum:
            if not explain:
                continue
            problems = [Reason("below-minimum", _("The cards from your hand you would meld count {counted} points; "
                                                  "your team needs {minimum} for its first meld.").format(
                                                      counted=counted, minimum=minimum))]
        else:
            options = seq_options
            if seq_all is not None and discard is not None and discard.is_natural:
                copies = held[discard]
                options = [o for used, o in seq_all if used.get(discard, 0) < copies]
            problems, plan = _try_place(rest, melds, info, rules, need, options, explain)
            if plan is not None:
                plan = plan.with_discard(discard)
                if plan.canastas >= need:
                    return plan, []
                if near is None or plan.canastas > near.canastas:
                    near = plan
        if best is None or _weight(problems) < _weight(best):
            best = problems
    if not explain:
        return None, []
    if near is not None and best and best[0].code == "canastas-short":
        # every card finds a place: the canastas are the only thing missing
        steps = near.describe(melds)
        if len(steps) == 1 and near.discard is not None:
            text = _("You could discard {card} as your last card, but you may not go out yet.").format(
                card=near.discard)
        else:
            text = _("You could place every card ({steps}), but you may not go out yet.").format(steps=_steps(steps))
        placed = Reason("places-every-card", text)
        return None, [placed, _canastas_short(near.canastas, need)]
    return None, best or []


def _steps(steps: list[str]) -> str:
    return join_words(steps)


def _weight(problems) -> float:
    """Rank failed attempts for the explanation: one that only lacks canastas came closest; a card left
    without partner weighs a little more than other problems, as it is often just the wrong discard."""
    return sum(0.5 if p.code == "canastas-short" else 1.1 if p.code == "lone-card" else 1 for p in problems)

